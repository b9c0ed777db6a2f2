package org.dpstream.service.dda;

import java.util.Locale;
import org.dpstream.core.distributed.DpDdaAccountant;
import org.dpstream.core.distributed.DpDdaCalibration;
import org.dpstream.core.distributed.DpDdaPrivacyReport;
import org.dpstream.core.privacy.accounting.PrivacyBudgetExceededException;
import org.dpstream.core.privacy.accounting.PrivacyLedger;

/**
 * The accounting of a DP-DDA run (Theorem 1) from its configuration: the accountant, the noise scale sigma (explicit
 * or calibrated for the target), the guarantee it obtains, and the ledger that reserves every round's cost before a
 * node sends anything.
 */
public final class DdaRunPrivacy {

  private final DdaNodeConfig config;
  private final DdaNodeConfig.Privacy privacy;

  DdaRunPrivacy(DdaNodeConfig config) {
    this.config = config;
    this.privacy = config.privacy();
  }

  /** The accountant of this run. */
  public DpDdaAccountant accountant() {
    DpDdaAccountant accountant = DpDdaAccountant.of(privacy.lipschitz(), config.data().samplesPerNode(), config.iota(),
            privacy.delta0(), config.rounds())
        .withVisibility(switch (privacy.activeSet()) {
          case "observable" -> DpDdaAccountant.ActiveSetVisibility.OBSERVABLE;
          case "hidden" -> DpDdaAccountant.ActiveSetVisibility.HIDDEN;
          default -> throw new IllegalArgumentException("privacy.activeSet must be observable or hidden, got '"
              + privacy.activeSet() + "'");
        });
    return privacy.compositionDelta() == null ? accountant : accountant.withCompositionSlack(privacy.compositionDelta());
  }

  private DpDdaAccountant.NoiseConstant constant() {
    try {
      return DpDdaAccountant.NoiseConstant.valueOf(privacy.noiseConstant().toUpperCase(Locale.ROOT).replace('-', '_'));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("privacy.noiseConstant must be proof-closes, utility-appendices or as-stated,"
          + " got '" + privacy.noiseConstant() + "'");
    }
  }

  /** sigma: the explicit one, or Theorem 1's calibration for the target epsilon. */
  public double sigma() {
    return privacy.sigma() != null ? privacy.sigma() : accountant().calibrateSigma(privacy.epsilon(), constant());
  }

  /** The guarantee this configuration obtains (never the nominal target). */
  public DpDdaPrivacyReport report() {
    return accountant().report(sigma(), privacy.epsilon());
  }

  /** The name of the accountant in the run's ledger and release. */
  String accountantName() {
    return "dp-dda-theorem1/" + privacy.noiseConstant() + "/active-set-" + privacy.activeSet();
  }

  /**
   * The run's ledger with the cost of every message of all T rounds reserved: a node calls this before it
   * sends anything, and runs only if it returns.
   *
   * @throws IllegalArgumentException naming the keys to change if the guarantee this configuration obtains
   *     (the exact lemma chain) is weaker than privacy.epsilon, or states no guarantee at all (delta 1)
   */
  public PrivacyLedger ledger() {
    try {
      return ledgerFor(sigma());
    } catch (PrivacyBudgetExceededException | IllegalArgumentException e) {
      DpDdaPrivacyReport report = report();
      String what = report.delta() >= 1
          ? "states no guarantee at all (delta = 1"
          : String.format(Locale.ROOT, "obtains eps = %.6g, delta = %.3g (", report.epsilon(), report.delta());
      double suggested = safeSigma();
      throw new IllegalArgumentException(String.format(Locale.ROOT,
          "privacy: this configuration %sthe exact lemma chain over all %d rounds), weaker than privacy.epsilon = %s,"
              + " so no node sends anything. %schange rounds, privacy.noiseConstant, privacy.delta0 or"
              + " privacy.compositionDelta (a fixed slack keeps delta below 1); raising privacy.epsilon accepts the"
              + " weaker guarantee",
          what, config.rounds(), privacy.epsilon(), Double.isNaN(suggested) ? "Raise privacy.sigma, or "
              : String.format(Locale.ROOT, "Set privacy.sigma to %.6g or more (its guarantee meets privacy.epsilon),"
                  + " or ", suggested)), e);
    }
  }

  private PrivacyLedger ledgerFor(double sigma) {
    return PrivacyLedger.forRun(DpDdaCalibration.of(accountant(), sigma, privacy.epsilon(), accountantName()));
  }

  /** The sigma whose reported guarantee meets privacy.epsilon with delta below 1, or NaN if there is none. */
  private double safeSigma() {
    try {
      double sigma = accountant().calibrateSigmaToReport(privacy.epsilon());
      ledgerFor(sigma);
      return sigma;
    } catch (PrivacyBudgetExceededException | IllegalArgumentException e) {
      return Double.NaN;
    }
  }
}
