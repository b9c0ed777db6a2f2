package org.dpstream.core.privacy.tree;

import java.io.DataOutput;
import java.io.IOException;
import org.dpstream.core.privacy.PrivatePrefixSums;

/** Tree-aggregated prefix sums in real units: leaves rounded onto the lattice, releases read back off it. */
public final class LatticePrefixSums implements PrivatePrefixSums {

  private final Lattice lattice;
  private final ContinualPrefixSum sums;
  private final long[] leafUnits;
  private final long[] releaseUnits;

  public LatticePrefixSums(Lattice lattice, ContinualPrefixSum sums) {
    this.lattice = lattice;
    this.sums = sums;
    this.leafUnits = new long[sums.dimension()];
    this.releaseUnits = new long[sums.dimension()];
  }

  @Override
  public void addAndRelease(double[] leaf, double[] release) {
    lattice.toUnits(leaf, leafUnits);
    sums.addAndRelease(leafUnits, releaseUnits);
    lattice.toValues(releaseUnits, release);
  }

  @Override
  public long epoch() {
    return sums.epoch();
  }

  @Override
  public long stepsInEpoch() {
    return sums.stepsInEpoch();
  }

  @Override
  public long totalSteps() {
    return sums.totalSteps();
  }

  @Override
  public void writeTo(DataOutput out) throws IOException {
    sums.writeTo(out);
  }
}
