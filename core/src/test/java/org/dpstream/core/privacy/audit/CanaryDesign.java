package org.dpstream.core.privacy.audit;

/**
 * The shape of a one-run audit and its negative control: m canaries, k guesses on each side, and the control's noise
 * calibrated for {@code controlFactor} times the sensitivity.
 *
 * @param canaries m
 * @param guessesEachSide k: heads for the k highest scores, tails for the k lowest
 * @param controlFactor the negative control's calibration, a fraction of the sensitivity
 */
public record CanaryDesign(int canaries, int guessesEachSide, double controlFactor) {

  /** The service's audits: 2000 canaries, 100 guesses each side, a control calibrated for a tenth of the sensitivity. */
  public static final CanaryDesign SERVICE = new CanaryDesign(2000, 100, 0.1);

  public CanaryDesign {
    if (canaries < 1 || guessesEachSide < 1 || 2 * guessesEachSide > canaries) {
      throw new IllegalArgumentException("need 1 <= 2k <= m: k = " + guessesEachSide + ", m = " + canaries);
    }
    if (!(controlFactor > 0 && controlFactor < 1)) {
      throw new IllegalArgumentException("the control's factor is in (0, 1): " + controlFactor);
    }
  }

  /** r = 2k. */
  public int guesses() {
    return 2 * guessesEachSide;
  }

  /** The audit's outcome for these scores and coins. */
  public OneRunAudit.Result guess(OneRunAudit audit, double[] scores, boolean[] heads) {
    return audit.guess(scores, heads, guessesEachSide, guessesEachSide);
  }

  /**
   * The bound the control gives, derived before it runs, when canaries score S_i c + N(0, sigma^2) under its noise and
   * the wrong guesses come out 4 standard deviations above their mean ({@link OneRunAudit#gaussianWrongGuessRate}).
   */
  public double derivedControlBound(OneRunAudit audit, double c, double sigma) {
    double wrong = OneRunAudit.gaussianWrongGuessRate(c, sigma, (double) guessesEachSide / canaries);
    return audit.pessimisticBound(canaries, guesses(), wrong, 4);
  }
}
