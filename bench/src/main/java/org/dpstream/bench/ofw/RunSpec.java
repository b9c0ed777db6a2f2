package org.dpstream.bench.ofw;

import java.util.Locale;
import org.dpstream.bench.common.Formats;
import org.dpstream.core.online.AccountantChoice;

/**
 * One run: an algorithm on one (p, d, T) data set of one seed at (epsilon, delta).
 *
 * @param accountant the accountant requested; batch baselines ignore it and use their own
 * @param unit whom (epsilon, delta) protects: one sample, or one person of k samples accounted for k, or one person
 *     of k samples by group privacy over an event-level model
 */
public record RunSpec(
    Algorithm algorithm, AccountantChoice accountant, double p, int d, int horizon, double epsilon, double delta,
    long seed, PrivacyUnit unit) {

  /** An event-level run. */
  public RunSpec(Algorithm algorithm, AccountantChoice accountant, double p, int d, int horizon, double epsilon,
      double delta, long seed) {
    this(algorithm, accountant, p, d, horizon, epsilon, delta, seed, PrivacyUnit.EVENT);
  }

  /**
   * Whom a run's guarantee protects. Person-level runs stream persons of exactly k samples each (every sample within
   * the bound, so none is rejected and the stream is the event-level one): {@code user} accounts every mechanism for
   * k participations; {@code group} is the naive alternative, an event-level model at (epsilon / k,
   * delta / (k e^((k - 1) epsilon / k))), which group privacy turns into (epsilon, delta) per person.
   */
  public record PrivacyUnit(String name, int maxContributions) {
    public static final PrivacyUnit EVENT = new PrivacyUnit("event", 1);

    /** {@code ""} at event level, else e.g. {@code "/user-k5"}. */
    String suffix() {
      return maxContributions == 1 && name.equals("event") ? "" : "/" + name + "-k" + maxContributions;
    }
  }

  /** The model id of the run's noise stream: unique per run, so no two runs share noise. */
  String runId() {
    return "bench-ofw/" + algorithm.cliName() + "/" + accountantName() + "/p=" + Formats.parameter(p)
        + "/d=" + d + "/T=" + horizon + "/eps=" + Formats.parameter(epsilon) + "/delta=" + Formats.parameter(delta)
        + "/seed=" + seed;
  }

  /** The accountant, and the unit when it is a person (e.g. {@code auto/user-k5}). */
  String accountantName() {
    return accountant.name().toLowerCase(Locale.ROOT) + unit.suffix();
  }

  /** Short label for the progress bar. */
  String label() {
    return algorithm.cliName() + "/" + accountantName() + " p=" + Formats.parameter(p) + " d=" + d + " T=" + horizon
        + " eps=" + Formats.parameter(epsilon) + " seed=" + seed;
  }
}
