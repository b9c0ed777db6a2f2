package org.dpstream.core.privacy.factorization;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.GaussianZcdpMap;
import org.dpstream.core.privacy.accounting.SensitivityStructure;
import org.dpstream.core.privacy.accounting.ZcdpBudget;
import org.dpstream.core.privacy.audit.AuditResult;
import org.dpstream.core.privacy.audit.AuditedMechanism;
import org.dpstream.core.privacy.audit.PrivacyAuditor;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseStream;
import org.dpstream.core.privacy.testing.TestKeys;
import org.dpstream.core.privacy.tree.DiscreteGaussianNodeNoise;
import org.dpstream.core.privacy.tree.Lattice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

/**
 * The empirical audit (see {@code BltAuditTest}) on the calibrated exact BLT: lattice, fixed-point C side, keyed
 * discrete Gaussian noise and the calibration with the rounding-widened column norms, as {@code ExactBltPlan} builds
 * them.
 *
 * <p>Neighbouring streams of n = 8 one-dimensional leaves differ in leaf 1 (+S vs -S after clipping to S). The
 * releases are gamma A C'^(-1) u with u = R(x) + z, so the first differences over gamma are w = C'^(-1) u and
 * u = C' w; the neighbours' u differ by about 2S / gamma C' e_1 (plus the rounding of R, a few units). The projection
 * &lt;u, C' e_1&gt; is the likelihood-ratio statistic of that shift, the discrete Gaussian mechanism the accountant
 * charges.
 *
 * <p>Negative control: the same mechanism with noise calibrated for a fifth of the clip bound (a sensitivity
 * miscomputed by 5). A leaf 5 times beyond the bound would not do: the fixed-point C side clamps every coordinate
 * to the bound, which in one dimension is the clipping itself.
 *
 * <p>alpha = 1e-3: a correct mechanism fails with probability at most 1e-3 on a fresh seed; the seeds are fixed,
 * so the test is deterministic.
 */
class ExactBltAuditTest {

  private static final int HORIZON = 8;
  private static final double CLIP = 1.0;
  private static final PrivacyBudget BUDGET = new PrivacyBudget(1.0, 1e-5);
  private static final Lattice LATTICE = Lattice.forScale(CLIP, 30);
  /** The clipped leaf's bound plus its rounding, as the plan derives it. */
  private static final double SENSITIVITY = Math.nextUp(2 * Math.nextUp(CLIP + LATTICE.roundingSlack(1, 2)));
  private static final FixedPointBlt ENCODER =
      FixedPointBlt.of(BltOptimizer.forHorizon(HORIZON), (long) Math.ceil(CLIP / LATTICE.granularity()) + 1);
  private static final GaussianZcdpMap CALIBRATION = calibration(SENSITIVITY);
  /** Noise for a fifth of the sensitivity the leaves have. */
  private static final GaussianZcdpMap FIFTH = calibration(SENSITIVITY / 5);
  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(18));
  private static final double[] C = ENCODER.strategy().coefficients(HORIZON);
  private static final int RUNS_PER_INPUT = 200_000;

  private static GaussianZcdpMap calibration(double sensitivity) {
    return GaussianZcdpMap.calibrate("zcdp-cks20-exact-blt", ZcdpBudget.of(BUDGET), sensitivity,
        SensitivityStructure.toeplitz(HORIZON, ENCODER.shiftNorms(LATTICE.granularity(), 1, sensitivity)));
  }

  private static AuditedMechanism bltOnNeighbours(GaussianZcdpMap calibration) {
    return (neighbour, rng) -> {
      NoiseStream bits = SOURCE.forStream(ExactBltPrefixSum.NOISE_PURPOSE, Long.toHexString(rng.nextLong()));
      ExactBltPrefixSum mechanism = ExactBltPrefixSum.start(ENCODER, LATTICE,
          DiscreteGaussianNodeNoise.onLattice(bits, 1, calibration.sigma(), LATTICE), HORIZON, 1);
      double first = neighbour ? -CLIP : CLIP;
      double[] release = new double[1];
      double previous = 0;
      double[] differences = new double[HORIZON + 1];
      double statistic = 0;
      for (int t = 1; t <= HORIZON; t++) {
        double leaf = t == 1 ? first : 0.25 * t;
        mechanism.addAndRelease(new double[] {leaf}, release);
        differences[t] = (release[0] - previous) / LATTICE.granularity();
        previous = release[0];
        double u = 0;
        for (int s = 1; s <= t; s++) {
          u += C[t - s] * differences[s];
        }
        statistic += C[t - 1] * u;
      }
      return statistic;
    };
  }

  private static AuditResult audit(GaussianZcdpMap calibration, long seed) {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    return PrivacyAuditor.of(1e-3, BUDGET.delta()).audit(bltOnNeighbours(calibration), RUNS_PER_INPUT, rng);
  }

  @Test
  void calibratedMechanismWithClippingPassesTheAudit(TestReporter reporter) {
    AuditResult result = audit(CALIBRATION, 181L);
    reporter.publishEntry("audit", result.toString());
    result.assertAtMost(BUDGET.epsilon());
    assertTrue(result.epsilonLowerBound() > 0.2, result.toString());
  }

  @Test
  void noiseForAFifthOfTheSensitivityIsCaught(TestReporter reporter) {
    AuditResult result = audit(FIFTH, 182L);
    reporter.publishEntry("audit", result.toString());
    assertThrows(AssertionError.class, () -> result.assertAtMost(BUDGET.epsilon()), result.toString());
  }
}
