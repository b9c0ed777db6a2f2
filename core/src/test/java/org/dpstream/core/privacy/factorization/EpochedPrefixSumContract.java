package org.dpstream.core.privacy.factorization;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.function.Supplier;

/** What every epoched prefix sum (BLT, square-root factorization) must do, shared by their tests. */
final class EpochedPrefixSumContract {

  private EpochedPrefixSumContract() {}

  /** The releases of {@code leaves}, one per step. */
  static double[][] run(EpochedPrefixSum mechanism, double[][] leaves) {
    double[][] releases = new double[leaves.length][mechanism.dimension()];
    for (int t = 0; t < leaves.length; t++) {
      mechanism.addAndRelease(leaves[t], releases[t]);
    }
    return releases;
  }

  /**
   * Malformed leaves (NaN, infinite, wrong length) inside an epoch and on the leaf that would start the next one
   * are refused, leave the release untouched and the step count unchanged, and the stream goes on bit for bit as
   * one without them. {@code fresh} makes identically keyed mechanisms of dimension 3.
   */
  static void assertAFailedStepChangesNothing(Supplier<? extends EpochedPrefixSum> fresh, int horizon,
      double[][] leaves) {
    double[][] clean = run(fresh.get(), leaves);
    EpochedPrefixSum withFailures = fresh.get();
    double[][] malformed = {{Double.NaN, 0, 0}, {0, Double.POSITIVE_INFINITY, 0}, {1, 2}};
    double[] release = new double[withFailures.dimension()];
    for (int t = 0; t < leaves.length; t++) {
      if (t == 2 || t == horizon) { // inside an epoch, and on the leaf that would start the next one
        for (double[] leaf : malformed) {
          double[] target = {7, 8, 9};
          assertThrows(IllegalArgumentException.class, () -> withFailures.addAndRelease(leaf, target));
          assertArrayEquals(new double[] {7, 8, 9}, target, "the release must be untouched");
          assertEquals(t, withFailures.totalSteps());
        }
      }
      withFailures.addAndRelease(leaves[t], release);
      assertArrayEquals(clean[t], release, "t=" + (t + 1));
    }
  }
}
