package org.dpstream.core.erm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;
import org.dpstream.core.erm.privacy.RdpConversion;
import org.dpstream.core.erm.privacy.SubsampledGaussianRdp;
import org.dpstream.core.loss.GlmLoss;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.Rounding;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BatchQuantileClippingTest {

  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(31));

  @Test
  void theGeometricUpdateMovesTheClipTowardsTheTargetQuantileUnderItsCeiling() {
    BatchQuantileClipping clipping = new BatchQuantileClipping(0.9, 0.2, 0.1);
    // Too few unclipped (0.4 < 0.9): the clip grows by exp(0.2 * 0.5).
    assertEquals(2 * Math.exp(0.1), clipping.nextClip(2, 0.4, 10), 1e-15);
    // Too many (1.0 > 0.9): it shrinks by exp(-0.02).
    assertEquals(2 * Math.exp(-0.02), clipping.nextClip(2, 1.0, 10), 1e-15);
    // At the target it stays; above the ceiling it is cut to the ceiling.
    assertEquals(2, clipping.nextClip(2, 0.9, 10), 1e-15);
    assertEquals(2.1, clipping.nextClip(2, 0.0, 2.1), 0);
  }

  @Test
  void theFractionAddsBackHalfTheExpectedBatchAndIsNotClamped() {
    // c = sum (indicator - 1/2) + noise = -1.5 with m = 10: (-1.5 + 5) / 10.
    assertEquals(0.35, BatchQuantileClipping.unclippedFraction(-1.5, 10), 1e-15);
    assertEquals(1.3, BatchQuantileClipping.unclippedFraction(8, 10), 1e-15);
    assertEquals(-0.2, BatchQuantileClipping.unclippedFraction(-7, 10), 1e-15);
  }

  @Test
  void gradientAndCountNoiseTogetherAreOneGaussianMechanismOfTheStepsMultiplier() {
    BatchQuantileClipping clipping = new BatchQuantileClipping(0.5, 0.2, 0.1);
    double z = 2;
    double gradient = clipping.gradientNoiseMultiplier(z);
    double count = clipping.countNoiseStd(z);
    assertEquals(2 / Math.sqrt(0.9), gradient, 1e-15);
    assertEquals(1 / Math.sqrt(0.1), count, 1e-15);
    // Per-record norms C (gradient, noise z_g C) and 1/2 (count, noise sigma_b): 0.225 + 0.025 = 1/z^2.
    assertEquals(1 / (z * z), 1 / (gradient * gradient) + 0.25 / (count * count), 1e-15);
    BatchQuantileClipping quarter = new BatchQuantileClipping(0.5, 0.2, 0.25);
    assertEquals(1 / 9.0, 1 / Math.pow(quarter.gradientNoiseMultiplier(3), 2)
        + 0.25 / Math.pow(quarter.countNoiseStd(3), 2), 1e-15);
    assertEquals(3 / Math.sqrt(0.75), quarter.gradientNoiseMultiplier(3), 1e-15);
    assertEquals(1.5 / 0.5, quarter.countNoiseStd(3), 1e-15);
  }

  @Test
  void aDpSgdRunWithAdaptiveClippingSpendsWhatTheSameAccountantGivesAndScalesItsGradientNoise() {
    ErmDataset data = ErmFixtures.classification(5L, 500, new double[] {1, 1, 1}, new double[] {1, -1, 0.5});
    CompositeObjective objective = CompositeObjective.of(GlmLoss.logistic(), Regularizer.l2(0.01));
    PrivacyBudget budget = new PrivacyBudget(1, 1e-5);
    ErmOptions fixed = ErmOptions.defaults().withClipNorm(Math.sqrt(3)).withBatchRate(0.05);
    ErmRun adaptive = new DpSgd().train(ErmProblem.of(data, objective, budget, 5,
        fixed.withQuantileClipping(BatchQuantileClipping.defaults())), SOURCE, "adaptive", PassListener.NONE);
    ErmRun plain = new DpSgd().train(ErmProblem.of(data, objective, budget, 5, fixed), SOURCE, "fixed",
        PassListener.NONE);
    // The count rides in the same subsampled Gaussian: same steps, same z, same epsilon.
    assertEquals(plain.privacySpent().orElseThrow(), adaptive.privacySpent().orElseThrow());
    double z = SubsampledGaussianRdp.calibrate(0.05, 100, budget, RdpConversion.CLASSIC).noiseMultiplier();
    String description = adaptive.describe();
    assertTrue(description.contains(String.format(Locale.ROOT, "z=%.6g", z)), description);
    assertTrue(description.contains(String.format(Locale.ROOT, "gradient noise std %.6g x clip",
        Rounding.up(z / Math.sqrt(0.9)))), description);
    assertTrue(description.contains(String.format(Locale.ROOT, "count noise std %.6g",
        Rounding.up(z / (2 * Math.sqrt(0.1))))), description);
    assertTrue(plain.describe().contains(String.format(Locale.ROOT, "gradient noise std %.6g x clip", z)),
        plain.describe());
  }

  @ParameterizedTest
  @ValueSource(doubles = {0.5, 0.8, 0.9})
  void withoutNoiseTheClipSettlesNearTheTargetQuantileOfTheGradientNorms(double gamma) {
    // w stays ~0 with a negligible step, so every residual is 1/2 and the norms are ||x_i|| / 2; all records
    // are sampled (q = 1), so the count is exact and the clip must end within a factor e^(eta/2) of the
    // gamma quantile of ||x_i|| / 2.
    ErmDataset data = ErmFixtures.classification(6L, 400, new double[] {1, 1}, new double[] {1, -1});
    double[] norms = new double[data.size()];
    for (int i = 0; i < norms.length; i++) {
      norms[i] = Math.hypot(data.feature(i, 0), data.feature(i, 1)) / 2;
    }
    java.util.Arrays.sort(norms);
    double quantile = norms[(int) Math.floor(gamma * norms.length)];
    BatchQuantileClipping defaults = BatchQuantileClipping.defaults();
    ErmOptions options = ErmOptions.defaults().withClipNorm(5).withBatchRate(1.0).withStepScale(1e-12)
        .withQuantileClipping(new BatchQuantileClipping(gamma, defaults.learningRate(), defaults.countBudgetShare()));
    ErmRun run = new DpSgd().train(ErmProblem.nonPrivate(data, CompositeObjective.of(GlmLoss.logistic(),
        Regularizer.none()), 200, options), SOURCE, "settle", PassListener.NONE);
    String description = run.describe();
    String prefix = "to ";
    int at = description.indexOf(prefix, description.indexOf("C from"));
    double finalClip = Double.parseDouble(description.substring(at + prefix.length(), description.indexOf(' ', at + 3)));
    assertTrue(finalClip > quantile * Math.exp(-0.1) && finalClip < quantile * Math.exp(0.1),
        "final clip " + finalClip + ", " + gamma + " quantile " + quantile);
  }

  @Test
  void invalidParametersAreRejected() {
    assertThrows(IllegalArgumentException.class, () -> new BatchQuantileClipping(1, 0.2, 0.1));
    assertThrows(IllegalArgumentException.class, () -> new BatchQuantileClipping(0.5, 0, 0.1));
    assertThrows(IllegalArgumentException.class, () -> new BatchQuantileClipping(0.5, 0.2, 1));
    assertThrows(IllegalArgumentException.class, () -> new BatchQuantileClipping(0.5, 0.2, 0));
  }
}
