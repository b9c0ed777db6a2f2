package org.dpstream.core.geometry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class NormClipperTest {

  private static final double INF = Double.POSITIVE_INFINITY;

  @ParameterizedTest
  @ValueSource(doubles = {1, 1.01, 1.5, 2, 3, 20, INF})
  void clippedVectorsNeverExceedTheBoundInFloatingPoint(double q) {
    RandomVectors random = RandomVectors.seeded(41);
    LpNorm norm = LpNorm.of(q);
    for (int trial = 0; trial < 3000; trial++) {
      double bound = Math.scalb(0.5 + random.uniform(), random.index(40) - 20);
      NormClipper clipper = NormClipper.of(norm, bound);
      double[] original = RandomVectors.scaled(random.gaussian(1 + random.index(50)), bound * 10);
      double[] x = original.clone();
      double before = norm.valueOf(x);
      boolean clipped = clipper.clipInPlace(x);
      assertEquals(before > bound, clipped);
      double after = norm.valueOf(x);
      assertTrue(after <= bound, () -> "q=" + q + ": " + after + " > " + bound);
      if (clipped) {
        assertTrue(after >= bound * (1 - 1e-12));
        assertArrayEquals(RandomVectors.scaled(original, bound / before), x, 1e-12 * bound);
      }
    }
  }

  /** The nudge is needed: scaling by bound / ||x|| alone overshoots on some inputs. */
  @Test
  void plainScalingWouldOvershoot() {
    RandomVectors random = RandomVectors.seeded(42);
    int overshoots = 0;
    for (int trial = 0; trial < 2000; trial++) {
      double[] x = RandomVectors.scaled(random.gaussian(10), 7);
      double factor = 1 / LpNorm.L2.valueOf(x);
      if (LpNorm.L2.valueOf(RandomVectors.scaled(x, factor)) > 1) {
        overshoots++;
      }
    }
    assertTrue(overshoots > 0);
  }

  @Test
  void vectorsInsideAreUntouched() {
    NormClipper clipper = NormClipper.of(LpNorm.L2, 5);
    double[] x = {3, -4};
    assertFalse(clipper.clipInPlace(x));
    assertArrayEquals(new double[] {3, -4}, x, 0);
    double[] out = new double[2];
    assertFalse(clipper.clip(new double[] {0.1, 0.2}, out));
    assertArrayEquals(new double[] {0.1, 0.2}, out, 0);
  }

  @Test
  void copyingVariantLeavesTheInputAlone() {
    NormClipper clipper = NormClipper.of(LpNorm.L1, 1);
    double[] x = {3, -1};
    double[] out = new double[2];
    assertTrue(clipper.clip(x, out));
    assertArrayEquals(new double[] {3, -1}, x, 0);
    assertArrayEquals(new double[] {0.75, -0.25}, out, 1e-15);
  }

  @Test
  void overflowingNormStillClipsCorrectly() {
    double[] x = {Double.MAX_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE};
    assertEquals(INF, LpNorm.L1.valueOf(x));
    assertTrue(NormClipper.of(LpNorm.L1, 1).clipInPlace(x));
    assertArrayEquals(new double[] {1.0 / 3, 1.0 / 3, -1.0 / 3}, x, 1e-15);
    assertTrue(LpNorm.L1.valueOf(x) <= 1);
  }

  @Test
  void rejectsBadArguments() {
    IllegalArgumentException bound =
        assertThrows(IllegalArgumentException.class, () -> NormClipper.of(LpNorm.L2, 0));
    assertEquals("clipping bound must be finite and > 0, got 0.0", bound.getMessage());
    assertThrows(IllegalArgumentException.class, () -> NormClipper.of(LpNorm.L2, INF));
    NormClipper clipper = NormClipper.of(LpNorm.L2, 1);
    double[] x = {1, Double.NaN};
    IllegalArgumentException nan =
        assertThrows(IllegalArgumentException.class, () -> clipper.clipInPlace(x));
    assertEquals("x must have finite entries, max |entry| is NaN", nan.getMessage());
    assertEquals(1, x[0], "left unchanged");
    assertThrows(IllegalArgumentException.class, () -> clipper.clip(x, new double[3]));
  }
}
