package org.dpstream.core.privacy.audit;

import java.util.Arrays;
import java.util.Objects;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.statistics.distribution.NormalDistribution;

/**
 * An empirical privacy audit: a statistical test that can prove a mechanism violates its claimed
 * (eps, delta)-differential privacy, by running it many times on two neighbouring inputs.
 *
 * <p>Method (the threshold-event audit of Ding et al. 2018, with the confidence intervals and the
 * held-out estimation of Jagielski et al. 2020):
 * <ol>
 *   <li>Run the mechanism N times on D and N times on D', reducing each release to a scalar
 *       statistic ({@link AuditedMechanism}).
 *   <li>On the first part of the runs (the selection runs, {@link #withSelectionFraction}) choose the
 *       event S = {statistic > tau} or {statistic < tau}, over every observed tau, and the order of
 *       (D, D') that promise the largest lower bound on the held-out runs, predicted pessimistically
 *       from the selection frequencies.
 *   <li>On the remaining, held-out runs count the hits of S and bound P[M(x) in S] from below and
 *       P[M(x') in S] from above with exact one-sided Clopper-Pearson bounds, each at level alpha / 2
 *       (Bonferroni), where x is the input on which S is likelier.
 *   <li>Report eps_lb = ln((lower - delta) / upper), or 0 when undefined or negative.
 * </ol>
 * Choosing S on separate runs avoids the winner's curse: the maximum of many noisy estimates is biased
 * upwards, so estimating on the runs that chose S would overstate epsilon.
 *
 * <p>Guarantee: if the mechanism is (eps, delta)-DP for this pair of inputs, then P[eps_lb > eps] <=
 * alpha, whatever the mechanism, statistic and N. So a failing audit proves a violation at confidence
 * 1 - alpha (or, with a fixed seed, reproducibly exhibits one that a fresh seed would also find with
 * high probability). A passing audit proves nothing about privacy: it is a lower bound, limited by the
 * statistic, the inputs, the event family and N. It catches gross bugs (a missing clip, a doubled
 * sensitivity, noise calibrated for the wrong epsilon), not subtle ones.
 *
 * <p>Cost: the mechanism's runs plus sorting the selection runs once; every candidate threshold is
 * scored in one merge pass, so 10^6 runs per input take well under a second beyond the mechanism.
 * Memory: 16 bytes per pair of runs.
 *
 * <p>References: Z. Ding, Y. Wang, G. Wang, D. Zhang, D. Kifer, "Detecting Violations of
 * Differential Privacy", CCS 2018; M. Jagielski, J. Ullman, A. Oprea, "Auditing Differentially Private
 * Machine Learning: How Private is Private SGD?", NeurIPS 2020; C. J. Clopper, E. S. Pearson, "The use
 * of confidence or fiducial limits illustrated in the case of the binomial", Biometrika 1934.
 *
 * <p>Immutable and thread-safe.
 */
public final class PrivacyAuditor {

  /**
   * A quarter of the runs choose S, the rest estimate it. Choosing only has to land near a good
   * threshold, where the bound varies slowly with tau, while the held-out count decides the width of
   * the intervals, so most runs go to estimation.
   */
  public static final double DEFAULT_SELECTION_FRACTION = 0.25;

  private final double alpha;
  private final double delta;
  private final double selectionFraction;

  private PrivacyAuditor(double alpha, double delta, double selectionFraction) {
    if (!(alpha > 0 && alpha < 1)) {
      throw new IllegalArgumentException("alpha must be in (0, 1): " + alpha);
    }
    if (!(delta >= 0 && delta < 1)) {
      throw new IllegalArgumentException("delta must be in [0, 1): " + delta);
    }
    if (!(selectionFraction > 0 && selectionFraction < 1)) {
      throw new IllegalArgumentException("selection fraction must be in (0, 1): " + selectionFraction);
    }
    this.alpha = alpha;
    this.delta = delta;
    this.selectionFraction = selectionFraction;
  }

  /**
   * An auditor of (eps, delta)-DP claims.
   *
   * @param alpha the probability of a false violation; the bound holds with confidence 1 - alpha
   * @param delta the delta of the claim being audited; 0 for pure eps-DP
   */
  public static PrivacyAuditor of(double alpha, double delta) {
    return new PrivacyAuditor(alpha, delta, DEFAULT_SELECTION_FRACTION);
  }

  /** A copy that spends {@code fraction} of the runs of each input on choosing the event. */
  public PrivacyAuditor withSelectionFraction(double fraction) {
    return new PrivacyAuditor(alpha, delta, fraction);
  }

  /**
   * Runs {@code mechanism} {@code runsPerInput} times on each input, alternating D and D', and
   * analyses the statistics with {@link #analyse}.
   *
   * @param runsPerInput N, at least 2
   * @param rng the randomness of every run; seed it for a reproducible audit
   */
  public AuditResult audit(AuditedMechanism mechanism, int runsPerInput, UniformRandomProvider rng) {
    Objects.requireNonNull(mechanism, "mechanism");
    Objects.requireNonNull(rng, "rng");
    requireEnoughRuns(runsPerInput);
    double[] onOriginal = new double[runsPerInput];
    double[] onNeighbour = new double[runsPerInput];
    for (int run = 0; run < runsPerInput; run++) {
      onOriginal[run] = mechanism.run(false, rng);
      onNeighbour[run] = mechanism.run(true, rng);
    }
    return analyse(onOriginal, onNeighbour);
  }

  /**
   * Audits statistics that the caller already collected, for example in parallel. The runs must be
   * independent; the first {@code selectionFraction} of each array chooses the event, the rest
   * estimate it. The arrays are not modified.
   *
   * @param onOriginal the statistic of each run on D
   * @param onNeighbour the statistic of each run on D', as many as on D (at least 2), no NaN
   */
  public AuditResult analyse(double[] onOriginal, double[] onNeighbour) {
    int runsPerInput = onOriginal.length;
    if (onNeighbour.length != runsPerInput) {
      throw new IllegalArgumentException(
          "need as many runs on D as on D': " + runsPerInput + " vs " + onNeighbour.length);
    }
    requireEnoughRuns(runsPerInput);
    requireNoNaN(onOriginal, NeighbouringInput.ORIGINAL);
    requireNoNaN(onNeighbour, NeighbouringInput.NEIGHBOUR);

    int selectionRuns = (int) Math.min(runsPerInput - 1,
        Math.max(1, Math.round(selectionFraction * runsPerInput)));
    int heldOutRuns = runsPerInput - selectionRuns;
    double oneSidedLevel = alpha / 2;

    double z = NormalDistribution.of(0, 1).inverseSurvivalProbability(oneSidedLevel);
    ThresholdEventSearch.Choice choice = new ThresholdEventSearch(z, delta, selectionRuns, heldOutRuns)
        .best(sortedPrefix(onOriginal, selectionRuns), sortedPrefix(onNeighbour, selectionRuns));

    ThresholdEvent event = choice.event();
    boolean neighbourLikelier = choice.likelier() == NeighbouringInput.NEIGHBOUR;
    EventFrequency likelierFrequency =
        countHits(neighbourLikelier ? onNeighbour : onOriginal, selectionRuns, event);
    EventFrequency otherFrequency =
        countHits(neighbourLikelier ? onOriginal : onNeighbour, selectionRuns, event);
    return new AuditResult(event, choice.likelier(), likelierFrequency, otherFrequency,
        ClopperPearson.lowerBound(likelierFrequency, oneSidedLevel),
        ClopperPearson.upperBound(otherFrequency, oneSidedLevel),
        selectionRuns, alpha, delta);
  }

  private static double[] sortedPrefix(double[] statistics, int length) {
    double[] prefix = Arrays.copyOf(statistics, length);
    Arrays.sort(prefix);
    return prefix;
  }

  /** Hits of {@code event} among {@code statistics[from..]}. */
  private static EventFrequency countHits(double[] statistics, int from, ThresholdEvent event) {
    int hits = 0;
    for (int i = from; i < statistics.length; i++) {
      if (event.contains(statistics[i])) {
        hits++;
      }
    }
    return new EventFrequency(hits, statistics.length - from);
  }

  private static void requireEnoughRuns(int runsPerInput) {
    if (runsPerInput < 2) {
      throw new IllegalArgumentException(
          "need at least 2 runs per input, one to choose the event and one to test it: "
              + runsPerInput);
    }
  }

  private static void requireNoNaN(double[] statistics, NeighbouringInput input) {
    for (int i = 0; i < statistics.length; i++) {
      if (Double.isNaN(statistics[i])) {
        throw new IllegalArgumentException("statistic of run " + i + " on " + input.symbol()
            + " is NaN; the mechanism under audit is broken");
      }
    }
  }

  @Override
  public String toString() {
    return "PrivacyAuditor(alpha=" + alpha + ", delta=" + delta + ", selectionFraction="
        + selectionFraction + ")";
  }
}
