package org.dpstream.core.privacy.tree;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.privacy.accounting.GaussianTreeCalibration;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.audit.AuditResult;
import org.dpstream.core.privacy.audit.AuditedMechanism;
import org.dpstream.core.privacy.audit.PrivacyAuditor;
import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.dpstream.core.privacy.random.NoiseStream;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

/**
 * The empirical audit on the real tree mechanism, keyed noise and zCDP calibration included.
 *
 * <p>Neighbouring streams of n = 8 one-dimensional leaves differ in leaf 1 (replacement: +S vs -S
 * after clipping to S, so the leaf's l2 sensitivity is 2S, as calibrated). Leaf 1 lies in the
 * nodes [1], [1,2], [1..4], [1..8], which are exactly the releases at t = 1, 2, 4, 8, so their sum is
 * the likelihood-ratio statistic: it sees all h = 4 nodes the accountant composes.
 *
 * <p>alpha = 1e-3: a correct mechanism fails with probability at most 1e-3 on a fresh seed; the
 * seeds are fixed, so the test is deterministic.
 */
class TreeMechanismAuditTest {

  private static final int HORIZON = 8;
  private static final double CLIP = 1.0;
  private static final PrivacyBudget BUDGET = new PrivacyBudget(1.0, 1e-5);
  private static final GaussianTreeCalibration CALIBRATION =
      GaussianTreeCalibration.of(BUDGET, HORIZON, 2 * CLIP);
  private static final Lattice LATTICE = Lattice.ofPowerOfTwo(-30);
  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(5));
  private static final int RUNS_PER_INPUT = 200_000;

  /** A user whose contribution is far outside the clip bound. */
  private static final double OVERSIZED = 5 * CLIP;

  private static AuditedMechanism treeOnNeighbours(boolean clipLeaves) {
    IidVectorNoise nodeNoise = IidVectorNoise.gaussian(1, CALIBRATION.nodeSigma());
    return (neighbour, rng) -> {
      // A fresh stream per run: independent noise, drawn exactly as in production.
      NoiseStream bits = SOURCE.forStream("tree", Long.toHexString(rng.nextLong()));
      ContinualPrefixSum tree = ContinualPrefixSum.compact(1, HORIZON, new KeyedNodeNoise(bits, nodeNoise, LATTICE));
      double first = neighbour ? -OVERSIZED : OVERSIZED;
      if (clipLeaves) {
        first = Math.max(-CLIP, Math.min(CLIP, first));
      }
      long[] release = new long[1];
      double statistic = 0;
      for (int t = 1; t <= HORIZON; t++) {
        double leaf = t == 1 ? first : 0.25 * t;
        tree.addAndRelease(new long[] {LATTICE.toUnits(leaf)}, release);
        if (Integer.bitCount(t) == 1) {
          statistic += LATTICE.toValue(release[0]);
        }
      }
      return statistic;
    };
  }

  private static AuditResult audit(boolean clipLeaves, long seed) {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    return PrivacyAuditor.of(1e-3, BUDGET.delta()).audit(treeOnNeighbours(clipLeaves), RUNS_PER_INPUT, rng);
  }

  @Test
  void calibratedTreeWithClippingPassesTheAudit(TestReporter reporter) {
    AuditResult result = audit(true, 31L);
    reporter.publishEntry("audit", result.toString());
    result.assertAtMost(BUDGET.epsilon());
    // Sanity that the audit looked at something: the bound is not vacuous.
    assertTrue(result.epsilonLowerBound() > 0.2, result.toString());
  }

  @Test
  void skippingTheClipIsCaught(TestReporter reporter) {
    AuditResult result = audit(false, 32L);
    reporter.publishEntry("audit", result.toString());
    assertThrows(AssertionError.class, () -> result.assertAtMost(BUDGET.epsilon()), result.toString());
  }
}
