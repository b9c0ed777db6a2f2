package org.dpstream.core.online;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpstream.core.geometry.LpBall;
import org.dpstream.core.geometry.LpNorm;
import org.dpstream.core.loss.DataBounds;
import org.dpstream.core.loss.GlmLoss;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every finite sample is computable: features and labels up to +-Double.MAX_VALUE, subnormals and -0.0
 * are clipped to the declared data bounds before any gradient, so the step succeeds and releases finite
 * parameters, for DP-POFW (p = 1) and DP-TOFW (p > 1).
 */
class ExtremeSampleTest {

  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(1212));
  private static final double MAX = Double.MAX_VALUE;
  private static final double TINY = Double.MIN_VALUE;
  private static final DataBounds BOUNDS = new DataBounds(1, 1);

  private static OnlineModelSpec spec(double p) {
    return OnlineModelSpec.withDerivedClipping("extreme-" + p, 5, GlmLoss.squared(), LpBall.of(p, 2),
        new PrivacyBudget(1, 1e-5), 64, BOUNDS, AccountantChoice.AUTO);
  }

  @ParameterizedTest
  @ValueSource(doubles = {1, 1.5, 2, 3, Double.POSITIVE_INFINITY})
  void hugeFiniteValuesAreClippedAndStepped(double p) {
    OnlineEstimator estimator = OnlineEstimators.start(spec(p), SOURCE);
    double[][] features = {
        {1e200, 0.1, 0.1, 0.1, 0.1},
        {MAX, MAX, MAX, MAX, MAX},
        {-MAX, MAX, -MAX, MAX, -MAX},
        {TINY, -TINY, 0, -0.0, TINY},
        {MAX, TINY, -0.0, -MAX, 1e-300},
    };
    double[] labels = {0.1, MAX, -MAX, -0.0, 1e300};
    for (int i = 0; i < features.length; i++) {
      double[] x = features[i].clone();
      StepOutcome outcome = estimator.step(x, labels[i]);
      assertArrayEquals(features[i], x, "the caller's features are not modified");
      assertEquals(i + 1, outcome.step());
      for (double theta : estimator.parameters()) {
        assertTrue(Double.isFinite(theta), "released parameters stay finite");
      }
    }
  }

  @ParameterizedTest
  @ValueSource(doubles = {1, 1.5, 2, Double.POSITIVE_INFINITY})
  void theClippedSampleIsWithinTheDeclaredBounds(double p) {
    OnlineModelSpec spec = spec(p);
    SampleClipper clipper = SampleClipper.of(spec);
    LpNorm q = spec.domain().norm().dual();
    double[] out = new double[5];
    for (double[] x : new double[][] {{MAX, MAX, MAX, MAX, MAX}, {1e200, 0.1, 0.1, 0.1, 0.1}, {-MAX, 0, 0, 0, TINY}}) {
      assertTrue(clipper.clipFeatures(x, out));
      assertTrue(q.valueOf(out) <= BOUNDS.featureDualNorm(), () -> "||clip(x)||_q = " + q.valueOf(out));
    }
    assertEquals(1, clipper.clipLabel(MAX));
    assertEquals(-1, clipper.clipLabel(-MAX));
  }

  @ParameterizedTest
  @ValueSource(doubles = {1, 2, Double.POSITIVE_INFINITY})
  void samplesWithinTheBoundsAreLeftBitForBit(double p) {
    SampleClipper clipper = SampleClipper.of(spec(p));
    double[] x = {TINY, -0.0, 0.05, -0.05, 0};
    double[] out = new double[5];
    assertFalse(clipper.clipFeatures(x, out));
    assertArrayEquals(x, out);
    assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(clipper.clipLabel(-0.0)));
    assertEquals(1.0, clipper.clipLabel(1.0));
  }

  @ParameterizedTest
  @ValueSource(doubles = {1, 2})
  void aZeroFeatureBoundMapsEveryFeatureVectorToZero(double p) {
    SampleClipper clipper = new SampleClipper(LpNorm.of(p), new DataBounds(0, 1));
    double[] out = new double[3];
    assertTrue(clipper.clipFeatures(new double[] {MAX, 0, -1}, out));
    assertArrayEquals(new double[3], out);
    assertFalse(clipper.clipFeatures(new double[] {0, -0.0, 0}, out));
  }

  /** Under a zero feature bound the output is overwritten with zeros; a wrong length or a non-finite entry is refused. */
  @Test
  void aZeroFeatureBoundOverwritesTheOutputAndRefusesBadSamples() {
    SampleClipper clipper = new SampleClipper(LpNorm.L2, new DataBounds(0, 1));
    double[] out = {5, 6, 7};
    assertTrue(clipper.clipFeatures(new double[] {1, 2, 3}, out));
    assertArrayEquals(new double[3], out);
    assertThrows(IllegalArgumentException.class, () -> clipper.clipFeatures(new double[] {1, 2}, new double[3]));
    assertThrows(IllegalArgumentException.class,
        () -> clipper.clipFeatures(new double[] {1, Double.NaN, 3}, new double[3]));
    assertThrows(IllegalArgumentException.class,
        () -> clipper.clipFeatures(new double[] {Double.NEGATIVE_INFINITY, 0, 0}, new double[3]));
    assertThrows(IllegalArgumentException.class, () -> clipper.clipLabel(Double.NaN));
    assertEquals(1.0, clipper.clipLabel(Double.POSITIVE_INFINITY));
    assertEquals(-1.0, clipper.clipLabel(-7));
  }

  /**
   * A sample of the wrong dimension, or with a NaN or infinite feature or label, is refused before it changes
   * anything: the model has taken no step, and its next valid step releases what a fresh model's first step does.
   */
  @ParameterizedTest
  @ValueSource(doubles = {1, 1.5})
  void aBadSampleIsRefusedAndChangesNothing(double p) {
    OnlineEstimator model = OnlineEstimators.start(spec(p), SOURCE);
    double[] good = {0.1, -0.2, 0.3, 0, 0.05};
    double[][] badFeatures = {{0.1, 0.2}, {0.1, Double.NaN, 0, 0, 0}, {0, 0, 0, Double.POSITIVE_INFINITY, 0},
        {Double.NEGATIVE_INFINITY, 0, 0, 0, 0}};
    for (double[] x : badFeatures) {
      assertThrows(IllegalArgumentException.class, () -> model.step(x, 0.5));
    }
    for (double y : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
      assertThrows(IllegalArgumentException.class, () -> model.step(good, y));
    }
    assertEquals(0, model.steps());
    model.step(good, 0.5);
    OnlineEstimator fresh = OnlineEstimators.start(spec(p), SOURCE);
    fresh.step(good, 0.5);
    assertArrayEquals(fresh.parameters(), model.parameters());
    assertEquals(fresh.ledger().spentEpsilon(), model.ledger().spentEpsilon());
  }
}
