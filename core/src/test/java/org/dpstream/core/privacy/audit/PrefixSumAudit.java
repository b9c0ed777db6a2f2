package org.dpstream.core.privacy.audit;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.privacy.PrivatePrefixSums;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.junit.jupiter.api.TestReporter;

/**
 * The empirical audit of a calibrated one-dimensional continual prefix sum (the tree, the square-root
 * factorization, a BLT), keyed noise and zCDP calibration included.
 *
 * <p>Neighbouring streams of n = {@value #HORIZON} leaves differ in leaf 1 (replacement: +S vs -S after clipping
 * to S = {@value #CLIP}, so the leaf's l2 sensitivity is {@link #SENSITIVITY} = 2S, as the mechanism is
 * calibrated); leaf t &gt; 1 is 0.25 t. Each run starts the mechanism on a fresh stream of keyed noise, drawn
 * exactly as in production, and reduces its n releases to one statistic, the likelihood-ratio one for that
 * mechanism. The negative control feeds leaf 1 unclipped: 5 times the calibrated sensitivity.
 *
 * <p>alpha = 1e-3: a correct mechanism fails with probability at most 1e-3 on a fresh seed; the seeds are
 * fixed, so the tests are deterministic.
 */
public final class PrefixSumAudit {

  public static final int HORIZON = 8;
  public static final double CLIP = 1.0;
  public static final double SENSITIVITY = 2 * CLIP;
  public static final PrivacyBudget BUDGET = new PrivacyBudget(1.0, 1e-5);

  private static final double OVERSIZED = 5 * CLIP;
  private static final int RUNS_PER_INPUT = 200_000;

  private final Function<String, ? extends PrivatePrefixSums> freshMechanism;
  private final ToDoubleFunction<double[]> statistic;

  private PrefixSumAudit(
      Function<String, ? extends PrivatePrefixSums> freshMechanism, ToDoubleFunction<double[]> statistic) {
    this.freshMechanism = freshMechanism;
    this.statistic = statistic;
  }

  /**
   * @param freshMechanism for a stream id, the calibrated mechanism of dimension 1 on its own keyed noise
   * @param statistic the run's statistic of releases y_1..y_n (array index t - 1)
   */
  public static PrefixSumAudit of(
      Function<String, ? extends PrivatePrefixSums> freshMechanism, ToDoubleFunction<double[]> statistic) {
    return new PrefixSumAudit(freshMechanism, statistic);
  }

  private AuditedMechanism onNeighbours(boolean clipLeaves) {
    return (neighbour, rng) -> {
      PrivatePrefixSums mechanism = freshMechanism.apply(Long.toHexString(rng.nextLong()));
      double first = neighbour ? -OVERSIZED : OVERSIZED;
      if (clipLeaves) {
        first = Math.max(-CLIP, Math.min(CLIP, first));
      }
      double[] releases = new double[HORIZON];
      double[] release = new double[1];
      for (int t = 1; t <= HORIZON; t++) {
        mechanism.addAndRelease(new double[] {t == 1 ? first : 0.25 * t}, release);
        releases[t - 1] = release[0];
      }
      return statistic.applyAsDouble(releases);
    };
  }

  private AuditResult audit(boolean clipLeaves, long seed, TestReporter reporter) {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    AuditResult result = PrivacyAuditor.of(1e-3, BUDGET.delta()).audit(onNeighbours(clipLeaves), RUNS_PER_INPUT, rng);
    reporter.publishEntry("audit", result.toString());
    return result;
  }

  /** The calibrated mechanism with clipping passes, with a lower bound that shows the audit looked at something. */
  public void assertPasses(long seed, TestReporter reporter) {
    AuditResult result = audit(true, seed, reporter);
    result.assertAtMost(BUDGET.epsilon());
    assertTrue(result.epsilonLowerBound() > 0.2, result.toString());
  }

  /** Without clipping, leaf 1 at 5 times the calibrated sensitivity is caught. */
  public void assertUnclippedIsCaught(long seed, TestReporter reporter) {
    AuditResult result = audit(false, seed, reporter);
    assertThrows(AssertionError.class, () -> result.assertAtMost(BUDGET.epsilon()), result.toString());
  }
}
