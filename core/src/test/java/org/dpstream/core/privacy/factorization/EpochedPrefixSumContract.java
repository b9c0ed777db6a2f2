package org.dpstream.core.privacy.factorization;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;

/** What every epoched prefix sum (BLT, square-root factorization) must do, shared by their tests. */
final class EpochedPrefixSumContract {

  /** Reads a mechanism back from its snapshot. */
  @FunctionalInterface
  interface Restore {
    EpochedPrefixSum from(DataInput in) throws IOException;
  }

  private EpochedPrefixSumContract() {}

  /** Leaves with coordinates uniform in [-1, 1), from a seeded generator. */
  static double[][] randomLeaves(int steps, int dimension, long seed) {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    double[][] leaves = new double[steps][dimension];
    for (double[] leaf : leaves) {
      for (int j = 0; j < dimension; j++) {
        leaf[j] = rng.nextDouble(-1, 1);
      }
    }
    return leaves;
  }

  /** The releases of {@code leaves}, one per step. */
  static double[][] run(EpochedPrefixSum mechanism, double[][] leaves) {
    double[][] releases = new double[leaves.length][mechanism.dimension()];
    for (int t = 0; t < leaves.length; t++) {
      mechanism.addAndRelease(leaves[t], releases[t]);
    }
    return releases;
  }

  /** The bytes of {@link EpochedPrefixSum#writeTo}. */
  static byte[] snapshot(EpochedPrefixSum mechanism) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    mechanism.writeTo(new DataOutputStream(bytes));
    return bytes.toByteArray();
  }

  /**
   * Without noise the releases of 17 integer leaves (every sum exact in doubles) are their exact prefix sums across
   * the epochs of {@code noiseless}, and its step counters follow.
   */
  static void assertNoiselessReleasesAreExactPrefixSums(EpochedPrefixSum noiseless) {
    int d = noiseless.dimension();
    long n = noiseless.horizon();
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(1);
    long[] exact = new long[d];
    double[] release = new double[d];
    for (int t = 1; t <= 17; t++) {
      double[] leaf = new double[d];
      for (int j = 0; j < d; j++) {
        long value = rng.nextLong(-1000, 1000);
        leaf[j] = value;
        exact[j] += value;
      }
      assertEquals((t - 1) % n + 1, noiseless.nextStepInEpoch(), "t=" + t);
      noiseless.addAndRelease(leaf, release);
      for (int j = 0; j < d; j++) {
        assertEquals(exact[j], release[j], "t=" + t + ", j=" + j);
      }
      assertEquals((t - 1) / n, noiseless.epoch(), "t=" + t);
      assertEquals((t - 1) % n + 1, noiseless.stepsInEpoch(), "t=" + t);
      assertEquals(t, noiseless.totalSteps());
    }
  }

  /** The same stream id replays bit for bit; another stream id draws other noise at every step. */
  static void assertAReplayIsBitIdenticalAndAnotherStreamIsNot(
      Function<String, ? extends EpochedPrefixSum> stream, double[][] leaves) {
    double[][] first = run(stream.apply("replay"), leaves);
    double[][] replay = run(stream.apply("replay"), leaves);
    double[][] other = run(stream.apply("replay-other"), leaves);
    for (int t = 0; t < leaves.length; t++) {
      assertArrayEquals(first[t], replay[t], "t=" + (t + 1));
      assertFalse(Arrays.equals(first[t], other[t]), "t=" + (t + 1));
    }
  }

  /** A leaf that would overflow the exact sum is refused, and the stream goes on as if it had not come. */
  static void assertAnOverflowingSumIsRejectedAndChangesNothing(Supplier<? extends EpochedPrefixSum> fresh) {
    double[] huge = {Double.MAX_VALUE, 0, 0};
    double[] back = {-Double.MAX_VALUE, 1, 1};
    double[][] clean = run(fresh.get(), new double[][] {huge, back, back});
    EpochedPrefixSum mechanism = fresh.get();
    double[] release = new double[mechanism.dimension()];
    mechanism.addAndRelease(huge, release);
    IllegalArgumentException overflow = assertThrows(IllegalArgumentException.class,
        () -> mechanism.addAndRelease(huge, new double[release.length]));
    assertEquals("the exact sum overflows", overflow.getMessage());
    mechanism.addAndRelease(back, release);
    assertArrayEquals(clean[1], release);
    mechanism.addAndRelease(back, release);
    assertArrayEquals(clean[2], release);
  }

  /**
   * A release beyond the largest double, with an exact sum and a base that are finite (the last release of an epoch
   * that summed to MAX_VALUE, plus a new epoch's first leaf of MAX_VALUE), is refused and changes nothing.
   * {@code fresh} makes identically keyed mechanisms of dimension 3 and this horizon.
   */
  static void assertAnOverflowingReleaseIsRejectedAndChangesNothing(Supplier<? extends EpochedPrefixSum> fresh,
      int horizon) {
    double[][] leaves = new double[horizon + 1][3];
    leaves[0][0] = Double.MAX_VALUE;
    leaves[horizon][0] = -Double.MAX_VALUE;
    double[][] clean = run(fresh.get(), leaves);
    EpochedPrefixSum mechanism = fresh.get();
    double[] release = new double[mechanism.dimension()];
    for (int t = 0; t < horizon; t++) {
      mechanism.addAndRelease(leaves[t], release);
    }
    double[] target = {7, 8, 9};
    IllegalArgumentException overflow = assertThrows(IllegalArgumentException.class,
        () -> mechanism.addAndRelease(new double[] {Double.MAX_VALUE, 0, 0}, target));
    assertEquals("the release overflows", overflow.getMessage());
    assertArrayEquals(new double[] {7, 8, 9}, target, "the release must be untouched");
    assertEquals(horizon, mechanism.totalSteps());
    mechanism.addAndRelease(leaves[horizon], release);
    assertArrayEquals(clean[horizon], release);
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
    String[] reasons = {"leaf coordinate 0 is not finite: NaN", "leaf coordinate 1 is not finite: Infinity",
        "leaf has length 2, expected 3"};
    double[] release = new double[withFailures.dimension()];
    for (int t = 0; t < leaves.length; t++) {
      if (t == 2 || t == horizon) { // inside an epoch, and on the leaf that would start the next one
        for (int k = 0; k < malformed.length; k++) {
          double[] leaf = malformed[k];
          double[] target = {7, 8, 9};
          IllegalArgumentException refused =
              assertThrows(IllegalArgumentException.class, () -> withFailures.addAndRelease(leaf, target));
          assertEquals(reasons[k], refused.getMessage(), "the reason names what is wrong");
          assertArrayEquals(new double[] {7, 8, 9}, target, "the release must be untouched");
          assertEquals(t, withFailures.totalSteps());
        }
      }
      withFailures.addAndRelease(leaves[t], release);
      assertArrayEquals(clean[t], release, "t=" + (t + 1));
    }
  }

  /**
   * A mechanism restored from its snapshot after any number of steps (every cut of {@code leaves}, epoch changes
   * included) has its counters and continues bit for bit as the uninterrupted one.
   */
  static void assertRestoringAtAnyStepContinuesBitIdentically(
      Supplier<? extends EpochedPrefixSum> fresh, Restore restore, double[][] leaves) throws IOException {
    double[][] reference = run(fresh.get(), leaves);
    for (int cut = 0; cut <= leaves.length; cut++) {
      EpochedPrefixSum original = fresh.get();
      double[] release = new double[original.dimension()];
      for (int t = 0; t < cut; t++) {
        original.addAndRelease(leaves[t], release);
      }
      EpochedPrefixSum restored = restore.from(new DataInputStream(new ByteArrayInputStream(snapshot(original))));
      assertEquals(original.epoch(), restored.epoch());
      assertEquals(original.stepsInEpoch(), restored.stepsInEpoch());
      assertEquals(cut, restored.totalSteps());
      for (int t = cut; t < leaves.length; t++) {
        restored.addAndRelease(leaves[t], release);
        assertArrayEquals(reference[t], release, "cut " + cut + ", t=" + (t + 1));
      }
    }
  }

  /**
   * The mean square of the release coordinates at each of {@code checkedSteps} (increasing), over {@code streams}
   * independent streams of zero leaves: the noise's per-coordinate variance, estimated with known mean 0.
   */
  static double[] meanSquaredReleases(IntFunction<? extends EpochedPrefixSum> stream, int streams, int[] checkedSteps) {
    double[] sumOfSquares = new double[checkedSteps.length];
    int dimension = 0;
    for (int s = 0; s < streams; s++) {
      EpochedPrefixSum mechanism = stream.apply(s);
      dimension = mechanism.dimension();
      double[] zero = new double[dimension];
      double[] release = new double[dimension];
      for (int t = 1, c = 0; c < checkedSteps.length; t++) {
        mechanism.addAndRelease(zero, release);
        if (checkedSteps[c] == t) {
          for (double x : release) {
            sumOfSquares[c] += x * x;
          }
          c++;
        }
      }
    }
    for (int c = 0; c < sumOfSquares.length; c++) {
      sumOfSquares[c] /= (double) streams * dimension;
    }
    return sumOfSquares;
  }
}
