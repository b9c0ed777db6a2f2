package org.dpstream.bandit.hdb;

import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import org.dpstream.bandit.Decision;
import org.dpstream.bandit.PrivateBandit;
import org.dpstream.bandit.release.DecisionRule;
import org.dpstream.bandit.release.ReleasedBandit;
import org.dpstream.core.loss.InverseLink;
import org.dpstream.core.online.SampleClipper;
import org.dpstream.core.privacy.random.NoiseStream;

/**
 * DP-HDB's decision (lines 5-6 and 12-14 of Han et al.'s Algorithm 3) as a function of the round, the
 * released parameters, the frozen forced-sampling estimators and the context: the one implementation
 * behind {@link DpHdbPolicy#decide} and the decider that follows dp.releases.
 *
 * <ul>
 *   <li>Warm-up, rounds [0, K t0): arm floor(round / t0), whatever the context.
 *   <li>Greedy: the context clipped to the declared ||x||_inf &lt;= X (as the arms clip it when they
 *       learn), the arms pre-selected whose forced-sampling mean is within h_sub / 2 of the best,
 *       then the pre-selected arm of the largest zeta(x' theta_i) with the current parameters (ties to
 *       the smallest index).
 * </ul>
 *
 * DP-HDB does not explore at random: the request's noise is never drawn. What the decision depends on
 * is public (the round, the released parameters, the spec) or the requester's own (the context).
 * Stateless and thread-safe.
 */
public final class DpHdbDecisionRule implements DecisionRule {

  /** The name of the extra released vectors holding theta_{t0,i}, one per arm (see {@link ReleasedBandit#extras}). */
  public static final String FORCED_SAMPLING = "forced-sampling";

  private final DpHdbSpec spec;
  private final InverseLink link;
  private final SampleClipper contextClipper;

  public DpHdbDecisionRule(DpHdbSpec spec) {
    this.spec = Objects.requireNonNull(spec, "spec");
    this.link = spec.link();
    this.contextClipper = SampleClipper.of(spec.armSpec(0));
  }

  @Override
  public String algorithm() {
    return DpHdbPolicy.NAME;
  }

  /** Greedy decisions read the frozen forced-sampling estimators; warm-up decisions read nothing. */
  @Override
  public Set<String> extrasNeeded(long step) {
    return phase(step) == Decision.Phase.GREEDY ? Set.of(FORCED_SAMPLING) : Set.of();
  }

  /** The phase of a decision made after {@code round} rounds. */
  public Decision.Phase phase(long round) {
    return round < spec.warmUpRounds() ? Decision.Phase.WARM_UP : Decision.Phase.GREEDY;
  }

  /**
   * The decision after {@code round} rounds.
   *
   * @param current theta_{round,i} of every arm
   * @param forcedSampling theta_{t0,i} of every arm; read only in the greedy phase, where every arm's
   *     block has ended
   * @throws IllegalArgumentException on a context of the wrong dimension or with non-finite values, or
   *     a greedy decision without every arm's forced-sampling estimator
   */
  public Decision decide(long round, double[][] current, double[][] forcedSampling, double[] context) {
    requireContext(context);
    if (phase(round) == Decision.Phase.WARM_UP) {
      return new Decision((int) (round / spec.warmUpRoundsPerArm()), Decision.Phase.WARM_UP, round);
    }
    requireVectors(current, "parameters");
    requireVectors(forcedSampling, FORCED_SAMPLING);
    double[] x = new double[context.length];
    contextClipper.clipFeatures(context, x);
    return new Decision(greedyArm(current, forcedSampling, x), Decision.Phase.GREEDY, round);
  }

  @Override
  public Decision decide(ReleasedBandit released, double[] context, Supplier<NoiseStream> requestNoise) {
    if (!released.banditId().equals(spec.banditId())) {
      throw new IllegalArgumentException("release of bandit " + released.banditId() + " given to " + spec.banditId());
    }
    return decide(released.step(), released.arms(), released.extra(FORCED_SAMPLING), context);
  }

  private int greedyArm(double[][] current, double[][] forcedSampling, double[] x) {
    int k = spec.arms();
    double[] forcedSamplingMeans = new double[k];
    double best = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < k; i++) {
      forcedSamplingMeans[i] = link.mean(dot(forcedSampling[i], x));
      best = Math.max(best, forcedSamplingMeans[i]);
    }
    // Strict inequality as printed; h_sub > 0 keeps the forced-sampling argmax in the set.
    double threshold = best - spec.preSelectionGap() / 2;
    int chosen = -1;
    double chosenMean = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < k; i++) {
      if (forcedSamplingMeans[i] > threshold) {
        double mean = link.mean(dot(current[i], x));
        if (chosen < 0 || mean > chosenMean) {
          chosen = i;
          chosenMean = mean;
        }
      }
    }
    return chosen;
  }

  /** The context check of both decisions and updates: the bandit's dimension, finite values. */
  void requireContext(double[] context) {
    PrivateBandit.requireContext(context, spec.dimension(), spec.banditId());
  }

  private void requireVectors(double[][] vectors, String what) {
    if (vectors == null || vectors.length != spec.arms()) {
      throw new IllegalArgumentException("bandit " + spec.banditId() + ": a greedy decision needs the " + what
          + " of all " + spec.arms() + " arms");
    }
    for (double[] v : vectors) {
      if (v == null || v.length != spec.dimension()) {
        throw new IllegalArgumentException("bandit " + spec.banditId() + ": " + what + " of dimension "
            + (v == null ? "none" : v.length) + ", expected " + spec.dimension());
      }
    }
  }

  private static double dot(double[] theta, double[] x) {
    double sum = 0;
    for (int j = 0; j < x.length; j++) {
      sum += theta[j] * x[j];
    }
    return sum;
  }
}
