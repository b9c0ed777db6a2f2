package org.dpstream.bandit.hdb;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.dpstream.bandit.BanditSpec;
import org.dpstream.core.geometry.LpBall;
import org.dpstream.core.loss.DataBounds;
import org.dpstream.core.loss.GlmLoss;
import org.dpstream.core.loss.InverseLink;
import org.dpstream.core.online.AccountantChoice;
import org.dpstream.core.online.NoiseChoice;
import org.dpstream.core.online.OnlineModelSpec;
import org.dpstream.core.privacy.accounting.PrivacyBudget;

/**
 * Everything that defines one DP-HDB bandit (Han et al., Algorithm 3). All of it is public
 * configuration: the data bounds are declared, never measured on the private data.
 *
 * @param banditId names the bandit; arm i's DP-POFW model (and its noise stream) is
 *     {@code banditId + "/arm-" + i}, so no two arms share noise
 * @param dimension d, the context dimension
 * @param arms K &gt;= 1
 * @param link the inverse link zeta (identity or logistic); the arms learn its matching GLM loss
 * @param radius r of the l1 ball every arm's parameters live in (diameter 2r)
 * @param preSelectionGap h_sub &gt; 0 of Assumption 4.1: arms whose forced-sampling mean is within
 *     h_sub / 2 of the best are pre-selected; {@code +infinity} pre-selects every arm
 * @param warmUpRoundsPerArm t0 &gt;= 1, forced-sampling rounds per arm
 * @param budget (epsilon, delta) of the whole release (all arms' parameters) with respect to one
 *     user's (context, reward); the arms get {@link #armBudget()}
 * @param horizon T &gt;= 2, the rounds the calibration is made for (DP-POFW's horizon n per arm,
 *     since every arm steps at every round)
 * @param data ||x||_inf &lt;= X (the dual norm of l1) and |r| &lt;= Y, declared
 * @param armNoise how each arm's DP-POFW draws its vertex: discrete (the fixed-point exponential mechanism on
 *     lattice scores, the default) or continuous (Gumbel-max)
 * @param participations k &gt;= 1, the most rounds one person contributes over the bandit's life (bounded by the
 *     service before the learner); 1 is event level. Each arm is calibrated for k of its samples and the budget is
 *     split over the arms k rounds can reach ({@link JointDpCalibration#armBudget(PrivacyBudget, int, int)})
 */
public record DpHdbSpec(
    String banditId,
    int dimension,
    int arms,
    InverseLink link,
    double radius,
    double preSelectionGap,
    long warmUpRoundsPerArm,
    PrivacyBudget budget,
    long horizon,
    DataBounds data,
    NoiseChoice armNoise,
    int participations) implements BanditSpec {

  public DpHdbSpec {
    Objects.requireNonNull(banditId, "banditId");
    Objects.requireNonNull(armNoise, "armNoise");
    Objects.requireNonNull(link, "link");
    Objects.requireNonNull(budget, "budget");
    Objects.requireNonNull(data, "data");
    if (banditId.isBlank()) {
      throw new IllegalArgumentException("banditId must not be blank");
    }
    if (dimension <= 0 || arms <= 0) {
      throw new IllegalArgumentException("dimension and arms must be positive: d=" + dimension + ", K=" + arms);
    }
    if (!(radius > 0) || Double.isInfinite(radius)) {
      throw new IllegalArgumentException("radius must be positive and finite: " + radius);
    }
    if (!(preSelectionGap > 0)) {
      throw new IllegalArgumentException(
          "h_sub must be positive (with h_sub = 0 no arm is pre-selected): " + preSelectionGap);
    }
    if (warmUpRoundsPerArm < 1 || warmUpRoundsPerArm > Long.MAX_VALUE / arms) {
      throw new IllegalArgumentException("t0 must be at least 1 and K t0 must fit a long: " + warmUpRoundsPerArm);
    }
    if (horizon < 2) {
      throw new IllegalArgumentException("horizon must be at least 2: " + horizon);
    }
    if (participations < 1) {
      throw new IllegalArgumentException("participations (maxContributions) must be at least 1: " + participations);
    }
  }

  /** An event-level spec (one round per person). */
  public DpHdbSpec(String banditId, int dimension, int arms, InverseLink link, double radius, double preSelectionGap,
      long warmUpRoundsPerArm, PrivacyBudget budget, long horizon, DataBounds data, NoiseChoice armNoise) {
    this(banditId, dimension, arms, link, radius, preSelectionGap, warmUpRoundsPerArm, budget, horizon, data,
        armNoise, 1);
  }

  /** This bandit accounted for up to {@code k} rounds of one person (1: event level). */
  public DpHdbSpec withParticipations(int k) {
    return new DpHdbSpec(banditId, dimension, arms, link, radius, preSelectionGap, warmUpRoundsPerArm, budget,
        horizon, data, armNoise, k);
  }

  /** A spec whose arms draw with the default, discrete noise. */
  public DpHdbSpec(String banditId, int dimension, int arms, InverseLink link, double radius, double preSelectionGap,
      long warmUpRoundsPerArm, PrivacyBudget budget, long horizon, DataBounds data) {
    this(banditId, dimension, arms, link, radius, preSelectionGap, warmUpRoundsPerArm, budget, horizon, data,
        NoiseChoice.DISCRETE);
  }

  /** A spec with t0 = {@link #defaultWarmUpRoundsPerArm} for d, T and the budget's epsilon. */
  public static DpHdbSpec withDefaultWarmUp(String banditId, int dimension, int arms, InverseLink link,
      double radius, double preSelectionGap, PrivacyBudget budget, long horizon, DataBounds data) {
    return new DpHdbSpec(banditId, dimension, arms, link, radius, preSelectionGap,
        defaultWarmUpRoundsPerArm(dimension, horizon, budget.epsilon()), budget, horizon, data);
  }

  /**
   * t0 = max(1, floor(ln(d T) ln(T) / epsilon^2)), the authors' code. Theorem
   * 4.2 asks for t0 = O(ln(d T / alpha) ln(T) / epsilon^2); the code drops alpha and the constant.
   * Epsilon is the bandit's total epsilon, as in the authors' code.
   */
  public static long defaultWarmUpRoundsPerArm(int dimension, long horizon, double epsilon) {
    double t0 = Math.log((double) dimension * horizon) * Math.log(horizon) / (epsilon * epsilon);
    return Math.max(1, (long) t0);
  }

  /** K t0: rounds [0, K t0) are the forced-sampling warm-up. */
  public long warmUpRounds() {
    return arms * warmUpRoundsPerArm;
  }

  /** The budget each arm's DP-POFW is calibrated to: see {@link JointDpCalibration#armBudget}. */
  public PrivacyBudget armBudget() {
    return JointDpCalibration.armBudget(budget, arms, participations);
  }

  /** The GLM loss of the link: squared for identity, logistic for logistic. */
  public GlmLoss loss() {
    return GlmLoss.of(link);
  }

  /** The synthetic label zeta(0) fed to the arms not chosen (with the all-zero context). */
  public double syntheticReward() {
    return link.mean(0);
  }

  /**
   * The DP-POFW spec of arm i: l1 ball of the radius, the arm budget, the horizon, and clip bounds
   * derived from the declared data bounds (so every sample, real or not, has the calibrated
   * sensitivity), with the arms' noise ({@code discrete}, the default: the fixed-point exponential mechanism on
   * lattice scores, no floating-point noise and data-independent work).
   */
  public OnlineModelSpec armSpec(int arm) {
    if (arm < 0 || arm >= arms) {
      throw new IllegalArgumentException("arm must be in [0, " + arms + "): " + arm);
    }
    // Auto: DP-POFW's exponential mechanism accounted in zCDP (paper would be Laplace report-noisy-min).
    return OnlineModelSpec.withDerivedClipping(banditId + "/arm-" + arm, dimension, loss(),
        LpBall.of(1, radius), armBudget(), horizon, data, AccountantChoice.AUTO).withNoise(armNoise)
        .withParticipations(participations);
  }

  /**
   * The arms' release and noise stream ids ({@code banditId/arm-i}) and the release id of the frozen forced-sampling
   * estimators ({@code banditId/forced-sampling}).
   */
  @Override
  public List<String> derivedIds() {
    List<String> ids = new ArrayList<>(BanditSpec.super.derivedIds());
    ids.add(banditId + "/" + DpHdbDecisionRule.FORCED_SAMPLING);
    return ids;
  }

  @Override
  public void requireReward(double reward) {
    if (!Double.isFinite(reward)) {
      throw new IllegalArgumentException("reward is not finite: " + reward);
    }
    link.requireLabel(reward);
  }

  @Override
  public String policyName() {
    return DpHdbPolicy.NAME;
  }

  /**
   * A SHA-256 digest of every field; saved state carries it so it is never resumed under another spec. Continuous
   * arms keep the digest of the specs before {@code armNoise} existed, so their saved states still resume.
   */
  public byte[] fingerprint() {
    String canonical = String.join("|", "dp-hdb-spec-v1", banditId, Integer.toString(dimension),
        Integer.toString(arms), link.toString(), Double.toString(radius), Double.toString(preSelectionGap),
        Long.toString(warmUpRoundsPerArm), Double.toString(budget.epsilon()), Double.toString(budget.delta()),
        Long.toString(horizon), Double.toString(data.featureDualNorm()), Double.toString(data.labelBound()))
        + (armNoise == NoiseChoice.CONTINUOUS ? "" : "|" + armNoise.fingerprintToken())
        // Only at person level, so event-level bandits keep their fingerprints and saved states.
        + (participations > 1 ? "|participations|" + participations : "");
    try {
      return MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }
}
