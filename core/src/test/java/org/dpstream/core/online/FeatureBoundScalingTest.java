package org.dpstream.core.online;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.dpstream.core.geometry.LpBall;
import org.dpstream.core.loss.DataBounds;
import org.dpstream.core.loss.GlmLoss;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Per-feature scaling of online models' samples (config key {@code featureBounds}): exact values of the map,
 * the estimator on scaled samples is the plain estimator on pre-divided samples (same noise) with its
 * parameters divided by the bounds, out-of-bound samples are clamped and counted, and state never resumes
 * under other bounds.
 */
class FeatureBoundScalingTest {

  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(1818));
  private static final double[] BOUNDS = {4, 0.5, 100, 1};
  /** Samples within BOUNDS: the divisions by 4, 0.5 and 1 are exact, by 100 correctly rounded. */
  private static final double[][] XS = {
      {1, 0.25, -50, 0.5}, {-4, -0.5, 100, -1}, {2.5, 0.125, 12.5, 0}, {-0.75, 0.375, -3, 0.25},
      {3, -0.25, 75, -0.5}, {0.5, 0.5, -100, 1}};
  private static final double[] YS = {0.5, -0.25, 1, 0, -1, 0.75};

  private static OnlineModelSpec plain(double p) {
    return OnlineModelSpec.withDerivedClipping("scaled-" + p, 4, GlmLoss.squared(), LpBall.of(p, 2),
        new PrivacyBudget(1, 1e-5), 16, new DataBounds(2, 1), AccountantChoice.AUTO);
  }

  private static OnlineModelSpec scaled(double p) {
    return plain(p).withFeatureScaling(FeatureBoundScaling.of(BOUNDS));
  }

  private static double[] divided(double[] x) {
    double[] out = new double[x.length];
    for (int j = 0; j < x.length; j++) {
      out[j] = x[j] / BOUNDS[j];
    }
    return out;
  }

  @Test
  void eachFeatureIsClampedToItsBoundThenDividedByIt() {
    FeatureBoundScaling scaling = FeatureBoundScaling.of(BOUNDS);
    double[] out = new double[4];
    assertFalse(scaling.scale(new double[] {2, -0.5, 25, -0.0}, out));
    assertArrayEquals(new double[] {0.5, -1, 0.25, -0.0}, out);
    assertTrue(scaling.scale(new double[] {8, -0.75, 100, 1.5}, out));
    assertArrayEquals(new double[] {1, -1, 1, 1}, out);
    assertTrue(scaling.scale(new double[] {-Double.MAX_VALUE, Double.MAX_VALUE, 0, 0}, out));
    assertArrayEquals(new double[] {-1, 1, 0, 0}, out);
    double[] tiny = FeatureBoundScaling.of(Double.MIN_VALUE).toOriginalUnits(new double[] {Double.MIN_VALUE});
    assertArrayEquals(new double[] {1}, tiny);
    assertArrayEquals(new double[] {0.25, -4, 0.01, 3}, scaling.toOriginalUnits(new double[] {1, -2, 1, 3}));
    assertEquals(0.5, scaling.smallestBound());
  }

  @Test
  void nonFiniteEntriesWrongLengthsAndBadBoundsAreRefused() {
    FeatureBoundScaling scaling = FeatureBoundScaling.of(BOUNDS);
    double[] out = new double[4];
    for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> scaling.scale(new double[] {0, bad, 0, 0}, out));
      assertTrue(e.getMessage().contains("finite"), e.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> scaling.scale(new double[3], out));
    assertThrows(IllegalArgumentException.class, () -> FeatureBoundScaling.of(1, 0));
    assertThrows(IllegalArgumentException.class, () -> FeatureBoundScaling.of(1, Double.POSITIVE_INFINITY));
    IllegalArgumentException dimension = assertThrows(IllegalArgumentException.class,
        () -> plain(2).withFeatureScaling(FeatureBoundScaling.of(1, 2, 3)));
    assertTrue(dimension.getMessage().startsWith("featureBounds: 3 bounds for a model of dimension 4"),
        dimension.getMessage());
    IllegalArgumentException overflow = assertThrows(IllegalArgumentException.class,
        () -> plain(2).withFeatureScaling(FeatureBoundScaling.of(1, 1, 1, 1e-308)));
    assertTrue(overflow.getMessage().startsWith("featureBounds:"), overflow.getMessage());
  }

  /** DP-POFW (p = 1) and DP-TOFW (p > 1, the zCDP tree or the BLT by auto). */
  @ParameterizedTest
  @ValueSource(doubles = {1, 1.5, 2, Double.POSITIVE_INFINITY})
  void theScaledModelIsThePlainModelOnDividedSamplesInOriginalUnits(double p) {
    OnlineEstimator scaled = OnlineEstimators.start(scaled(p), SOURCE);
    OnlineEstimator reference = OnlineEstimators.start(plain(p), SOURCE);
    for (int t = 0; t < XS.length; t++) {
      double[] x = XS[t].clone();
      StepOutcome outcome = scaled.step(x, YS[t]);
      StepOutcome expected = reference.step(divided(XS[t]), YS[t]);
      assertArrayEquals(XS[t], x, "the caller's features are not modified");
      assertEquals(expected, outcome);
      double[] theta = reference.parameters();
      assertArrayEquals(divided(theta), scaled.parameters(), "step " + (t + 1));
      assertEquals(reference.ledger(), scaled.ledger());
    }
    assertNotEquals(0, reference.parameters()[0], "the comparison is not between two zero vectors");
    assertEquals(reference.mechanism() + "/featureBounds(original units)", scaled.mechanism());
  }

  @ParameterizedTest
  @ValueSource(doubles = {1, 2})
  void aSampleOutsideItsBoundsIsClampedAndCountedNeverRefused(double p) {
    OnlineEstimator scaled = OnlineEstimators.start(scaled(p), SOURCE);
    OnlineEstimator reference = OnlineEstimators.start(plain(p), SOURCE);
    double[] outside = {Double.MAX_VALUE, -1e300, 101, 0.5};
    StepOutcome outcome = scaled.step(outside, 0.5);
    StepOutcome expected = reference.step(new double[] {1, -1, 1, 0.5}, 0.5);
    assertTrue(outcome.sampleClipped());
    assertEquals(expected.step(), outcome.step());
    assertEquals(expected.gradientClipped(), outcome.gradientClipped());
    assertArrayEquals(divided(reference.parameters()), scaled.parameters());
    for (double w : scaled.parameters()) {
      assertTrue(Double.isFinite(w));
    }
    StepOutcome within = scaled.step(XS[0], YS[0]);
    assertEquals(reference.step(divided(XS[0]), YS[0]).sampleClipped(), within.sampleClipped());
  }

  @Test
  void stateResumesBitForBitUnderTheSameBoundsAndIsRefusedUnderOthers() throws IOException {
    OnlineModelSpec spec = scaled(1.5);
    OnlineEstimator straight = OnlineEstimators.start(spec, SOURCE);
    OnlineEstimator first = OnlineEstimators.start(spec, SOURCE);
    for (int t = 0; t < 3; t++) {
      straight.step(XS[t], YS[t]);
      first.step(XS[t], YS[t]);
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    first.writeState(new DataOutputStream(bytes));
    byte[] state = bytes.toByteArray();
    OnlineEstimator resumed = OnlineEstimators.restore(spec, new DataInputStream(new ByteArrayInputStream(state)), SOURCE);
    for (int t = 3; t < XS.length; t++) {
      straight.step(XS[t], YS[t]);
      resumed.step(XS[t], YS[t]);
      assertArrayEquals(straight.parameters(), resumed.parameters(), "step " + (t + 1));
    }
    double[] other = BOUNDS.clone();
    other[2] = 200;
    OnlineModelSpec otherBounds = plain(1.5).withFeatureScaling(FeatureBoundScaling.of(other));
    assertThrows(IOException.class,
        () -> OnlineEstimators.restore(otherBounds, new DataInputStream(new ByteArrayInputStream(state)), SOURCE));
    assertThrows(IOException.class,
        () -> OnlineEstimators.restore(plain(1.5), new DataInputStream(new ByteArrayInputStream(state)), SOURCE));
    assertFalse(java.util.Arrays.equals(plain(1.5).fingerprint(), spec.fingerprint()));
  }

  /** The scaled estimator answers for the model it wraps: its spec, steps and epochs. */
  @Test
  void theScaledEstimatorReportsTheWrappedModelsProgress() {
    OnlineModelSpec spec = scaled(1.5);
    OnlineEstimator estimator = OnlineEstimators.start(spec, SOURCE);
    assertEquals(spec, estimator.spec());
    for (int t = 0; t < 20; t++) {
      estimator.step(XS[t % XS.length], YS[t % YS.length]);
    }
    assertEquals(20, estimator.steps());
    assertEquals(1, estimator.epoch(), "the horizon is 16");
  }

  /** Scalings are values: equal bounds are equal scalings, the bounds are copied out, and printed. */
  @Test
  void scalingsAreValuesOfTheirBounds() {
    FeatureBoundScaling scaling = FeatureBoundScaling.of(BOUNDS);
    assertEquals(FeatureBoundScaling.of(BOUNDS.clone()), scaling);
    assertEquals(FeatureBoundScaling.of(BOUNDS.clone()).hashCode(), scaling.hashCode());
    assertNotEquals(FeatureBoundScaling.of(4, 0.5, 100, 2), scaling);
    assertNotEquals(scaling, (Object) "featureBounds[4.0, 0.5, 100.0, 1.0]");
    double[] copy = scaling.toArray();
    assertArrayEquals(BOUNDS, copy);
    copy[0] = 7;
    assertArrayEquals(BOUNDS, scaling.toArray());
    assertEquals("featureBounds[4.0, 0.5, 100.0, 1.0]", scaling.toString());
  }
}
