package org.dpstream.core.privacy.tree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.dpstream.core.privacy.testing.ConstantNodeNoise;
import org.junit.jupiter.api.Test;

/** Real-valued leaves in, real-valued releases out, the tree's sums kept on the lattice in between. */
class LatticePrefixSumsTest {

  private static final Lattice LATTICE = Lattice.ofPowerOfTwo(-2);

  /**
   * With one lattice unit of noise per node, the release at t is the sum of the leaves rounded to quarters, plus
   * popcount(t) quarters, read back in real units; the counters follow the tree's, across an epoch.
   */
  @Test
  void leavesAreRoundedOntoTheLatticeAndReleasesReadBackOffIt() {
    ContinualPrefixSum sums = ContinualPrefixSum.compact(2, 2, new ConstantNodeNoise(1));
    LatticePrefixSums prefixSums = new LatticePrefixSums(LATTICE, sums);
    double[] release = new double[2];
    prefixSums.addAndRelease(new double[] {1.1, -0.6}, release); // rounds to 1.0 and -0.5
    assertArrayEquals(new double[] {1.25, -0.25}, release);
    prefixSums.addAndRelease(new double[] {0.5, 2.0}, release); // t = 2: one node
    assertArrayEquals(new double[] {1.75, 1.75}, release);
    prefixSums.addAndRelease(new double[] {-3.0, 0.0}, release); // a new epoch over the last release
    assertArrayEquals(new double[] {-1.0, 2.0}, release);
    assertEquals(1, prefixSums.epoch());
    assertEquals(1, prefixSums.stepsInEpoch());
    assertEquals(3, prefixSums.totalSteps());
  }

  @Test
  void theSnapshotIsTheTreesOwn() throws IOException {
    ContinualPrefixSum sums = ContinualPrefixSum.compact(2, 4, new ConstantNodeNoise(1));
    LatticePrefixSums prefixSums = new LatticePrefixSums(LATTICE, sums);
    prefixSums.addAndRelease(new double[] {1.0, 2.0}, new double[2]);
    ByteArrayOutputStream own = new ByteArrayOutputStream();
    sums.writeTo(new DataOutputStream(own));
    ByteArrayOutputStream written = new ByteArrayOutputStream();
    prefixSums.writeTo(new DataOutputStream(written));
    assertEquals(1 + 4 + 8 + 8 + 16 + 8 + 16, written.size());
    assertArrayEquals(own.toByteArray(), written.toByteArray());
  }
}
