package org.dpstream.core.distributed;

import java.util.Objects;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.PrivacyCalibration;

/**
 * DP-DDA's privacy map: the noise sigma of a run (Theorem 1's calibration, the report's, or given) and what
 * its first t rounds of messages cost by the exact lemma chain of {@link DpDdaAccountant#reportAfter}, never
 * the nominal target. The budget is (target epsilon, the delta the chain obtains over the whole run): DP-DDA's
 * delta is not chosen by the user (the paper's is "some constant"; the report warns when it exceeds 1/q), so
 * only epsilon is held to a target. A run whose chain gives more than the target, which Theorem 1's sigma
 * does outside the theorem's premises, is refused by its {@link
 * org.dpstream.core.privacy.accounting.PrivacyLedger} before any message is sent.
 */
public final class DpDdaCalibration implements PrivacyCalibration {

  private final DpDdaAccountant accountant;
  private final double sigma;
  private final double targetEpsilon;
  private final String name;
  private final DpDdaPrivacyReport wholeRun;

  private DpDdaCalibration(DpDdaAccountant accountant, double sigma, double targetEpsilon, String name) {
    this.accountant = accountant;
    this.sigma = sigma;
    this.targetEpsilon = targetEpsilon;
    this.name = name;
    this.wholeRun = accountant.report(sigma, targetEpsilon);
  }

  /**
   * The map of a run with noise {@code sigma}, held to {@code targetEpsilon}.
   *
   * @param name the accountant's name in the ledger, e.g. {@code dp-dda-theorem1/proof-closes/active-set-observable}
   * @throws IllegalArgumentException if the chain's delta over the whole run reaches 1 (no (eps, delta)
   *     guarantee at all)
   */
  public static DpDdaCalibration of(DpDdaAccountant accountant, double sigma, double targetEpsilon, String name) {
    Objects.requireNonNull(accountant, "accountant");
    Objects.requireNonNull(name, "name");
    DpDdaCalibration calibration = new DpDdaCalibration(accountant, sigma, targetEpsilon, name);
    if (!(calibration.wholeRun.delta() < 1)) {
      throw new IllegalArgumentException("the run's delta by the lemma chain is " + calibration.wholeRun.delta()
          + ": no (eps, delta) guarantee at all");
    }
    return calibration;
  }

  /** The report of the whole run (T rounds). */
  public DpDdaPrivacyReport report() {
    return wholeRun;
  }

  public double sigma() {
    return sigma;
  }

  @Override
  public String accountant() {
    return name;
  }

  /** (target epsilon, the chain's delta after T rounds). */
  @Override
  public PrivacyBudget budget() {
    return new PrivacyBudget(targetEpsilon, wholeRun.delta());
  }

  /** T. */
  @Override
  public long horizon() {
    return accountant.rounds();
  }

  /** The chain's (epsilon, delta) after t rounds, rounded up. */
  @Override
  public PrivacyBudget spentAfter(long step) {
    DpDdaPrivacyReport report = step == accountant.rounds() ? wholeRun : accountant.reportAfter(sigma, targetEpsilon, step);
    return new PrivacyBudget(report.epsilon(), report.delta());
  }
}
