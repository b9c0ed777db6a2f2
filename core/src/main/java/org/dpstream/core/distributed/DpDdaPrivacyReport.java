package org.dpstream.core.distributed;

import java.util.List;

/**
 * The (epsilon, delta) guarantee a DP-DDA configuration actually obtains, with every link of the chain of
 * Theorem 1's proof, and the warnings the configuration deserves. Values are rounded to the safe side.
 *
 * @param sigma noise standard deviation per coordinate
 * @param steps rounds composed (t &lt;= T; T for the run's final guarantee)
 * @param stepEpsilon eps_t of one Gaussian release of sensitivity 2L at delta_0 (Lemma 4.1, or the analytic
 *     Gaussian mechanism when Lemma 4.1's premise eps_t &lt;= 1 fails)
 * @param amplifiedStepEpsilon eps'_t = ln(1 + gamma (e^{eps_t} - 1)), gamma = iota / q (Lemma 4.2), or 1 / q
 *     when the active set is observable
 * @param amplifiedStepDelta delta'_t = gamma delta_0
 * @param compositionSlack the delta' of the advanced composition
 * @param epsilon the composed epsilon
 * @param delta the composed delta = 1 - (1 - delta')(1 - delta'_t)^steps
 * @param minimumRounds T_min = ceil(5 q^2 eps^2 / (4 iota^2)) of Theorem 1 for the target epsilon
 * @param warnings human-readable violations of the theorem's conditions; empty when none
 */
public record DpDdaPrivacyReport(
    double sigma, long steps, double stepEpsilon, double amplifiedStepEpsilon, double amplifiedStepDelta,
    double compositionSlack, double epsilon, double delta, long minimumRounds, List<String> warnings) {

  public DpDdaPrivacyReport {
    warnings = List.copyOf(warnings);
  }

  /** Whether Theorem 1's condition on T (and eps in (0, 1]) held. */
  public boolean theoremConditionHolds() {
    return warnings.stream().noneMatch(w -> w.startsWith(DpDdaAccountant.T_CONDITION_WARNING));
  }

  /** One line for logs and bench output. */
  public String describe() {
    return String.format(java.util.Locale.ROOT,
        "(eps=%.4g, delta=%.3g) after %d rounds: sigma=%.4g, eps_t=%.4g, eps'_t=%.4g, delta'=%.3g, T_min=%d%s",
        epsilon, delta, steps, sigma, stepEpsilon, amplifiedStepEpsilon, compositionSlack, minimumRounds,
        warnings.isEmpty() ? "" : "; WARNING: " + String.join("; ", warnings));
  }
}
