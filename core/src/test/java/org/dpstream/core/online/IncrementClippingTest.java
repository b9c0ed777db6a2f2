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
import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.testing.ConstantNodeNoise;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;

/** Whole-increment clipping: the bound it enforces, the sensitivity the noise is calibrated to, its name. */
class IncrementClippingTest {

  private static final PrivacyBudget BUDGET = new PrivacyBudget(1, 1e-4);
  private static final DataBounds BOUNDS = new DataBounds(1, 1.5);

  private static OnlineModelSpec spec(double p, AccountantChoice accountant, IncrementClipping clipping) {
    return OnlineModelSpec.withDerivedClipping("clip", 5, GlmLoss.squared(), LpBall.of(p, 2), BUDGET, 1000, BOUNDS,
        accountant).withIncrementClipping(clipping);
  }

  @Test
  void theWholeIncrementIsClippedToCInTheNoisesNormAndSmallOnesAreLeftAlone() {
    OnlineModelSpec spec = spec(1.5, AccountantChoice.ZCDP, IncrementClipping.fixed(0.25));
    ClippedIncrement increment = new ClippedIncrement(spec, LpNorm.L2);
    FrankWolfeIterates iterates = FrankWolfeIterates.atOrigin(5);
    iterates.stepTowards(new double[] {1, -1, 0.5, 0, 0.2}, 0.5);
    double[] g = new double[5];
    increment.compute(iterates, new double[] {0.6, -0.3, 0.2, 0.1, -0.5}, 1.2, 40, g);
    assertTrue(increment.gradientClipped(), "a large increment is clipped");
    assertTrue(LpNorm.L2.valueOf(g) <= 0.25, "||g||_2 = " + LpNorm.L2.valueOf(g));
    assertEquals(0.25, LpNorm.L2.valueOf(g), 1e-12, "clipped onto the sphere of radius C");

    OnlineModelSpec wide = spec(1.5, AccountantChoice.ZCDP, IncrementClipping.fixed(1e6));
    ClippedIncrement unclipped = new ClippedIncrement(wide, LpNorm.L2);
    double[] h = new double[5];
    unclipped.compute(iterates, new double[] {0.6, -0.3, 0.2, 0.1, -0.5}, 1.2, 40, h);
    assertFalse(unclipped.gradientClipped());
    for (int i = 0; i < 5; i++) {
      assertEquals(h[i] * (0.25 / LpNorm.L2.valueOf(h)), g[i], 1e-12, "same direction, coordinate " + i);
    }
  }

  @Test
  void theNoiseIsCalibratedToTwiceCAndScalesWithIt() {
    TreeNoisePlan one = TreeNoisePlan.choose(spec(1.5, AccountantChoice.ZCDP, IncrementClipping.fixed(1)));
    TreeNoisePlan two = TreeNoisePlan.choose(spec(1.5, AccountantChoice.ZCDP, IncrementClipping.fixed(2)));
    TreeNoisePlan worst = TreeNoisePlan.choose(spec(1.5, AccountantChoice.ZCDP, IncrementClipping.WORST_CASE));
    double sigmaOne = ((IidVectorNoise) one.noise()).scale();
    double sigmaTwo = ((IidVectorNoise) two.noise()).scale();
    double sigmaWorst = ((IidVectorNoise) worst.noise()).scale();
    // The lattice slack is ~2^-30 of C, so sigma is proportional to C up to that.
    assertEquals(2, sigmaTwo / sigmaOne, 1e-6);
    // The worst case at p = 1.5 (q = 3 > 2) bounds ||g||_2 by d^(1/2 - 1/3) (L + beta D).
    OnlineModelSpec worstSpec = spec(1.5, AccountantChoice.ZCDP, IncrementClipping.WORST_CASE);
    double worstBound = Math.pow(5, 0.5 - 1.0 / 3) * worstSpec.clipBounds().incrementBound();
    assertEquals(worstBound, sigmaWorst / sigmaOne, 1e-6 * worstBound);
    assertEquals(LpNorm.L2, one.clipNorm());
    // The paper's calibration measures sensitivity in the dual norm, so it clips there.
    assertEquals(LpNorm.of(3), TreeNoisePlan.paper(spec(1.5, AccountantChoice.PAPER, IncrementClipping.fixed(1)))
        .clipNorm());
    assertEquals(LpNorm.L2, PrefixSumPlan.choose(spec(1.5, AccountantChoice.FACTORIZATION, IncrementClipping.fixed(1)))
        .clipNorm());
  }

  @Test
  void releasesNameTheClipping() {
    KeyedNoiseSource source = new KeyedNoiseSource(TestKeys.seeded(5));
    String fixed = DpTofw.start(spec(1.5, AccountantChoice.ZCDP, IncrementClipping.fixed(2)), source).mechanism();
    assertTrue(fixed.startsWith("dp-tofw/zcdp") && fixed.endsWith("/clip(l_2.0, C=2.0)"), fixed);
    String worst = DpTofw.start(spec(1.5, AccountantChoice.ZCDP, IncrementClipping.WORST_CASE), source).mechanism();
    assertTrue(worst.contains("/clip(worst-case, L+bD="), worst);
  }

  @Test
  void wholeClippingIsRefusedWhereItIsNotImplementedAndCMustBePositive() {
    assertThrows(IllegalArgumentException.class, () -> DpPofw.start(
        spec(1, AccountantChoice.PAPER, IncrementClipping.fixed(1)), new KeyedNoiseSource(TestKeys.seeded(5))));
    assertThrows(IllegalArgumentException.class, () -> IncrementClipping.fixed(0));
    assertThrows(IllegalArgumentException.class, () -> IncrementClipping.fixed(Double.NaN));
    assertThrows(IllegalArgumentException.class, () -> IncrementClipping.fixed(Double.POSITIVE_INFINITY));
  }

  /** Noise off, theta_1 = 0: the first step moves to eta_1 v_1, with eta_1 = min(1, lr / 2). */
  @Test
  void theLearningRateScalesTheStepSizeUpToOne() {
    double[][] first = new double[3][];
    double[] rates = {1, 2, 10};
    for (int i = 0; i < rates.length; i++) {
      OnlineModelSpec spec = spec(1.5, AccountantChoice.ZCDP, IncrementClipping.WORST_CASE).withLearningRate(rates[i]);
      TreeNoisePlan plan = TreeNoisePlan.choose(spec);
      DpTofw estimator = DpTofw.start(spec, plan, plan.withNodeNoise(spec, new ConstantNodeNoise(0)));
      estimator.step(new double[] {0.5, -0.2, 0.1, 0.3, -0.4}, 0.7);
      first[i] = estimator.parameters();
    }
    for (int j = 0; j < 5; j++) {
      assertEquals(2 * first[0][j], first[1][j], 1e-15, "lr = 2 takes the full step to the vertex");
    }
    assertArrayEquals(first[1], first[2], "the step size is capped at 1");
    assertThrows(IllegalArgumentException.class,
        () -> spec(1.5, AccountantChoice.ZCDP, IncrementClipping.WORST_CASE).withLearningRate(0));
  }
}
