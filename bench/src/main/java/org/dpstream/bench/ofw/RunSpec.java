package org.dpstream.bench.ofw;

import java.util.Locale;
import org.dpstream.bench.common.Formats;
import org.dpstream.core.online.AccountantChoice;

/**
 * One run: an algorithm on one (p, d, T) data set of one seed at (epsilon, delta).
 *
 * @param accountant the accountant requested; batch baselines ignore it and use their own
 */
public record RunSpec(
    Algorithm algorithm, AccountantChoice accountant, double p, int d, int horizon, double epsilon, double delta,
    long seed) {

  /** The model id of the run's noise stream: unique per run, so no two runs share noise. */
  String runId() {
    return "bench-ofw/" + algorithm.cliName() + "/" + accountantName() + "/p=" + Formats.parameter(p)
        + "/d=" + d + "/T=" + horizon + "/eps=" + Formats.parameter(epsilon) + "/delta=" + Formats.parameter(delta)
        + "/seed=" + seed;
  }

  String accountantName() {
    return accountant.name().toLowerCase(Locale.ROOT);
  }

  /** Short label for the progress bar. */
  String label() {
    return algorithm.cliName() + "/" + accountantName() + " p=" + Formats.parameter(p) + " d=" + d + " T=" + horizon
        + " eps=" + Formats.parameter(epsilon) + " seed=" + seed;
  }
}
