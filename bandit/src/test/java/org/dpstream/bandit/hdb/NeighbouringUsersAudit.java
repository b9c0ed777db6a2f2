package org.dpstream.bandit.hdb;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpstream.core.privacy.audit.AuditResult;
import org.dpstream.core.privacy.audit.PrivacyAuditor;

/**
 * Runs a bandit many times on neighbouring users (D and D') and audits each scalar statistic of its
 * release with core's auditor at alpha = 1e-3: the harness of the bandits' audit tests.
 */
public final class NeighbouringUsersAudit {

  /** One run on D ({@code neighbour} false) or D', returning its statistics; draws its noise scope from rng. */
  @FunctionalInterface
  public interface Run {
    double[] statistics(boolean neighbour, UniformRandomProvider rng);
  }

  private NeighbouringUsersAudit() {}

  /** The audit of each of the {@code statistics} scalars over {@code runsPerInput} runs per input. */
  public static AuditResult[] audit(Run run, int statistics, int runsPerInput, long seed, double delta) {
    UniformRandomProvider rng = TestRandomness.bits(seed);
    double[][] original = new double[statistics][runsPerInput];
    double[][] neighbour = new double[statistics][runsPerInput];
    for (int r = 0; r < runsPerInput; r++) {
      double[] onD = run.statistics(false, rng);
      double[] onNeighbour = run.statistics(true, rng);
      for (int s = 0; s < statistics; s++) {
        original[s][r] = onD[s];
        neighbour[s][r] = onNeighbour[s];
      }
    }
    PrivacyAuditor auditor = PrivacyAuditor.of(1e-3, delta);
    AuditResult[] results = new AuditResult[statistics];
    for (int s = 0; s < statistics; s++) {
      results[s] = auditor.analyse(original[s], neighbour[s]);
    }
    return results;
  }
}
