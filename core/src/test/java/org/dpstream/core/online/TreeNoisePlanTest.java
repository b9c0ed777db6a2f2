package org.dpstream.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpstream.core.geometry.LpBall;
import org.dpstream.core.geometry.LpNorm;
import org.dpstream.core.loss.DataBounds;
import org.dpstream.core.loss.GlmLoss;
import org.dpstream.core.privacy.accounting.NormRegularity;
import org.dpstream.core.privacy.accounting.PaperTreeCalibration;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.junit.jupiter.api.Test;

/** The paper tree's sensitivity and Gaussian scale. */
class TreeNoisePlanTest {

  private static final DataBounds WIDE = new DataBounds(1, 1);

  private static OnlineModelSpec spec(int d, double p, double epsilon, AccountantChoice accountant) {
    return new OnlineModelSpec("tree-plan", d, GlmLoss.squared(), LpBall.of(p, 1), new PrivacyBudget(epsilon, 1e-6),
        1000, new ClipBounds(1, 0.5), accountant, WIDE);
  }

  /**
   * The paper tree (Algorithm 1) takes the q-norm sensitivity 2 (B + slack), B the increment bound and slack the
   * lattice's rounding in the q norm, each sum rounded up; for p &gt; 2 its smooth norm is c ||.||_2 (Lemma 3.3, c =
   * d^(1/2 - 1/p) &gt; 1), so its node noise is N(0, (sigma_+ / c)^2 I), rounded up.
   */
  @Test
  void thePaperTreesSensitivityHoldsTheLatticesSlackAndItsGaussianIsScaledDownByC() {
    int d = 16;
    OnlineModelSpec spec = spec(d, 4, 1, AccountantChoice.PAPER);
    TreeNoisePlan plan = TreeNoisePlan.choose(spec);
    PaperTreeCalibration calibration = assertInstanceOf(PaperTreeCalibration.class, plan.calibration());
    double q = LpNorm.dualExponent(4);
    double slack = TreeNoisePlan.latticeFor(spec).roundingSlack(d, q);
    assertTrue(slack > 0);
    assertEquals(Math.nextUp(2 * Math.nextUp(TreeNoisePlan.incrementBound(spec) + slack)),
        calibration.leafSensitivity());

    NormRegularity regularity = NormRegularity.forPrimalExponent(4, d);
    assertEquals(NormRegularity.SmoothNorm.SCALED_L2, regularity.smoothNorm());
    double c = regularity.euclideanScale();
    assertTrue(c > 1, "c = " + c);
    IidVectorNoise gaussian = assertInstanceOf(IidVectorNoise.class, plan.noise());
    assertEquals(IidVectorNoise.Law.GAUSSIAN, gaussian.law());
    assertEquals(Math.nextUp(calibration.nodeSigma() / c), gaussian.scale());
  }
}
