package org.dpstream.core.privacy.audit;

import java.util.Locale;

/**
 * The outcome of one {@link PrivacyAuditor} audit: a lower bound on the epsilon of the mechanism, with
 * the evidence behind it.
 *
 * <p>Reading it: with probability at least 1 - alpha over the audit's randomness, the mechanism's true
 * epsilon (at the audit's delta) is at least {@link #epsilonLowerBound()}. So a bound above the claimed
 * epsilon proves the claim false at that confidence, whereas a bound below it proves nothing about
 * privacy: only that this statistic and this pair of inputs found no violation.
 *
 * <p>Immutable.
 */
public final class AuditResult {

  private final ThresholdEvent event;
  private final NeighbouringInput likelierInput;
  private final EventFrequency likelierFrequency;
  private final EventFrequency otherFrequency;
  private final double likelierLowerBound;
  private final double otherUpperBound;
  private final int selectionRunsPerInput;
  private final double alpha;
  private final double delta;
  private final double epsilonLowerBound;

  AuditResult(ThresholdEvent event, NeighbouringInput likelierInput,
      EventFrequency likelierFrequency, EventFrequency otherFrequency, double likelierLowerBound,
      double otherUpperBound, int selectionRunsPerInput, double alpha, double delta) {
    this.event = event;
    this.likelierInput = likelierInput;
    this.likelierFrequency = likelierFrequency;
    this.otherFrequency = otherFrequency;
    this.likelierLowerBound = likelierLowerBound;
    this.otherUpperBound = otherUpperBound;
    this.selectionRunsPerInput = selectionRunsPerInput;
    this.alpha = alpha;
    this.delta = delta;
    this.epsilonLowerBound = epsilonLowerBound(likelierLowerBound, otherUpperBound, delta);
  }

  /**
   * (eps, delta)-DP requires P[M(x) in S] <= e^eps P[M(x') in S] + delta for both orders of the pair,
   * so any lower bound on the left and upper bound on the right give eps >= ln((lower - delta) /
   * upper). Epsilon is never negative, and without a positive numerator the event says nothing.
   */
  private static double epsilonLowerBound(double lower, double upper, double delta) {
    double numerator = lower - delta;
    if (!(numerator > 0)) {
      return 0;
    }
    return Math.max(0, Math.log(numerator / upper));
  }

  /** The epsilon lower bound, >= 0; holds with probability >= 1 - {@link #alpha()}. */
  public double epsilonLowerBound() {
    return epsilonLowerBound;
  }

  /** The event S, chosen on the selection runs. */
  public ThresholdEvent event() {
    return event;
  }

  /** The input on which S was found more likely (the numerator of the ratio). */
  public NeighbouringInput likelierInput() {
    return likelierInput;
  }

  /** Held-out runs on {@code input} that landed in S. */
  public EventFrequency heldOutFrequency(NeighbouringInput input) {
    return input == likelierInput ? likelierFrequency : otherFrequency;
  }

  /** Exact lower confidence bound on P[M(likelier input) in S], at level alpha / 2. */
  public double likelierLowerBound() {
    return likelierLowerBound;
  }

  /** Exact upper confidence bound on P[M(other input) in S], at level alpha / 2. */
  public double otherUpperBound() {
    return otherUpperBound;
  }

  /** Runs per input spent on choosing S; they are not counted in the held-out frequencies. */
  public int selectionRunsPerInput() {
    return selectionRunsPerInput;
  }

  /** Probability that the audit overstates epsilon: the bound's confidence is 1 - alpha. */
  public double alpha() {
    return alpha;
  }

  /** The delta of the guarantee being audited. */
  public double delta() {
    return delta;
  }

  /** Whether the audit proves, at confidence 1 - alpha, that the mechanism is not claimedEpsilon-DP. */
  public boolean violates(double claimedEpsilon) {
    return epsilonLowerBound > claimedEpsilon;
  }

  /**
   * For tests: passes when no violation of the claim is found.
   *
   * @throws AssertionError with the numbers of the audit when {@link #violates} the claim
   */
  public void assertAtMost(double claimedEpsilon) {
    if (violates(claimedEpsilon)) {
      throw new AssertionError(String.format(Locale.ROOT,
          "privacy violation: the mechanism is not (%s, %s)-DP, with confidence %s; %s",
          claimedEpsilon, delta, 1 - alpha, this));
    }
  }

  @Override
  public String toString() {
    String likelier = likelierInput.symbol();
    String other = likelierInput.other().symbol();
    return String.format(Locale.ROOT,
        "eps >= %.4f with confidence %s at delta = %s: S = %s (chosen on %d runs per input);"
            + " held out, M(%s) in S %s so P >= %.4g, M(%s) in S %s so P <= %.4g"
            + " (exact one-sided bounds at %s each); eps_lb = max(0, ln((%.4g - %s) / %.4g))",
        epsilonLowerBound, 1 - alpha, delta, event, selectionRunsPerInput,
        likelier, likelierFrequency, likelierLowerBound, other, otherFrequency, otherUpperBound,
        alpha / 2, likelierLowerBound, delta, otherUpperBound);
  }
}
