package org.dpstream.bandit.linear;

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
import org.dpstream.core.online.AccountantChoice;
import org.dpstream.core.online.IncrementClipping;
import org.dpstream.core.online.NoiseChoice;
import org.dpstream.core.online.OnlineModelSpec;
import org.dpstream.core.online.PrefixSumPlan;
import org.dpstream.core.online.TreeNoisePlan;
import org.dpstream.core.privacy.accounting.PrivacyBudget;

/**
 * Everything that defines one DP-Linear bandit: a greedy policy on per-arm ridge regression whose
 * sufficient statistics are released privately (Shariff and Sheffet 2018). All of it is public
 * configuration.
 *
 * @param banditId names the bandit; arm i's statistics stream (and its noise) is
 *     {@code banditId + "/arm-" + i + "/stats"}
 * @param dimension d
 * @param arms K &gt;= 1
 * @param contextClip c &gt; 0: a context x with ||x||_2 &gt; c is scaled by s = c / ||x||_2 and so is its
 *     reward (joint scaling keeps a linear model r = theta' x exact, and a greedy choice argmax theta' x is
 *     invariant to positive scaling)
 * @param rewardClip B &gt; 0: the scaled, centred reward (r - m) s is clipped to [-B, B]
 * @param budget (epsilon, delta) of the release of all arms' statistics with respect to one user's
 *     (context, reward): see the package documentation
 * @param horizon T, the rounds one epoch of the releases is calibrated for
 * @param refreshEvery k &gt;= 1: the statistics are released (and the ridge solutions refreshed) once
 *     every k rounds, each leaf holding k rounds' contributions; at most {@link #maxRefreshEvery} (2^21 to 2^22),
 *     so that a leaf's sum stays exact
 * @param accountant the prefix-sum mechanism of the statistics: ZCDP (Gaussian tree) or FACTORIZATION;
 *     the noise must be Gaussian in l2 for the joint accounting (PAPER and AUTO are refused)
 * @param noise continuous or discrete Gaussian node noise (the tree's)
 * @param rewardCenter m, a public constant subtracted from every reward before it is scaled and clipped: the midpoint
 *     of the declared reward range, so that B is its half-width (rewards in [0, 1]: m = 1/2, B = 1/2, against
 *     B = 1 uncentred). The greedy choice compares theta_k' x across arms, and E[r - m | x, k] orders the arms as
 *     E[r | x, k] does; 0 by default
 * @param participations k &gt;= 1, the most rounds one person contributes over the bandit's life (bounded by the
 *     service before the learner); 1 is event level. The statistics are calibrated for k rounds of one person
 *     ({@link #statisticsSpec}; docs/privacy-layer.md, "Person-level bandits")
 */
public record DpLinearSpec(
    String banditId,
    int dimension,
    int arms,
    double contextClip,
    double rewardClip,
    PrivacyBudget budget,
    long horizon,
    int refreshEvery,
    AccountantChoice accountant,
    NoiseChoice noise,
    double rewardCenter,
    int participations) implements BanditSpec {

  /** The largest statistics leaf the lattice rounding argument of {@link #leafBound()} covers. */
  public static final int MAX_LEAF_DIMENSION = 1 << 20;

  /**
   * The releases over a horizon by default (refresh period ceil(T / 100)), through the square-root factorization
   * ({@link #DEFAULT_ACCOUNTANT}): learning needs an arm's Gram matrix to exceed the ridge weight matched to the
   * release noise ({@link RidgeWeight}); the factorization's noise grows only like 1 + ln(n) / pi in the number n
   * of releases, while decisions on stale statistics cost at most the first period's 1 / n of random's regret, so
   * n = 100 keeps that below 1 % and the noise near its floor (docs/results.md: the Gaussian tree released every d
   * rounds has a 2.5 to 8 times larger ridge weight).
   */
  public static final int DEFAULT_RELEASES = 100;

  /** The default prefix-sum mechanism of the statistics: the square-root factorization. */
  public static final AccountantChoice DEFAULT_ACCOUNTANT = AccountantChoice.FACTORIZATION;

  /**
   * The pending leaf sums (each arm's contributions since its last release, in lattice units) must stay below this:
   * below 2^53 a {@code long} converts to the leaf's double exactly, and the tree's lattice rounding
   * ({@code Lattice.toUnits}) takes only values below 2^52 units.
   */
  static final double MAX_PENDING_UNITS = 0x1p52;

  /** Failure probability of the ridge weight's spectral bound over all releases of one epoch. */
  public static final double RIDGE_FAILURE_PROBABILITY = 0.05;

  public DpLinearSpec {
    Objects.requireNonNull(banditId, "banditId");
    Objects.requireNonNull(budget, "budget");
    Objects.requireNonNull(accountant, "accountant");
    Objects.requireNonNull(noise, "noise");
    if (banditId.isBlank()) {
      throw new IllegalArgumentException("banditId must not be blank");
    }
    if (dimension <= 0 || arms <= 0) {
      throw new IllegalArgumentException("dimension and arms must be positive: d=" + dimension + ", K=" + arms);
    }
    if (leafDimension(dimension) > MAX_LEAF_DIMENSION) {
      throw new IllegalArgumentException("dimension too large for dp-linear (d(d+3)/2 must be at most 2^20): " + dimension);
    }
    requirePositiveFinite(contextClip, "contextClip");
    requirePositiveFinite(rewardClip, "rewardClip");
    if (!Double.isFinite(rewardCenter)) {
      throw new IllegalArgumentException("rewardCenter must be finite: " + rewardCenter);
    }
    if (refreshEvery < 1) {
      throw new IllegalArgumentException("refreshEvery must be at least 1: " + refreshEvery);
    }
    if (horizon < 2L * refreshEvery) {
      throw new IllegalArgumentException("horizon must be at least two refresh periods: T=" + horizon + ", k=" + refreshEvery);
    }
    long maxRefresh = maxRefreshEvery(contextClip, rewardClip);
    if (refreshEvery > maxRefresh) {
      throw new IllegalArgumentException("refreshEvery must be at most " + maxRefresh + " for contextClip "
          + contextClip + " and rewardClip " + rewardClip + ": a leaf sums refreshEvery contributions of up to "
          + maxUnitsPerContribution(contextClip, rewardClip) + " lattice units each, and the sum must stay below 2^52"
          + " units to be exact; got " + refreshEvery);
    }
    if (accountant != AccountantChoice.ZCDP && accountant != AccountantChoice.FACTORIZATION) {
      throw new IllegalArgumentException("accountant must be zcdp or factorization for dp-linear (Gaussian noise in l2), got "
          + accountant.name().toLowerCase(java.util.Locale.ROOT));
    }
    if (participations < 1) {
      throw new IllegalArgumentException("participations (maxContributions) must be at least 1: " + participations);
    }
    if (participations > 1 && accountant == AccountantChoice.ZCDP && refreshEvery > 1) {
      // The tree's Phi_k counts at most one of a person's samples per leaf; a leaf of refreshEvery rounds may hold
      // several of them, and that bound would then be too small.
      throw new IllegalArgumentException("person-level dp-linear on the Gaussian tree (accountant: zcdp) needs"
          + " refreshEvery: 1 (a leaf of several rounds may hold several rounds of one person); use accountant:"
          + " factorization, whose bound holds for any refresh period");
    }
  }

  /** An event-level spec (one round per person). */
  public DpLinearSpec(String banditId, int dimension, int arms, double contextClip, double rewardClip,
      PrivacyBudget budget, long horizon, int refreshEvery, AccountantChoice accountant, NoiseChoice noise,
      double rewardCenter) {
    this(banditId, dimension, arms, contextClip, rewardClip, budget, horizon, refreshEvery, accountant, noise,
        rewardCenter, 1);
  }

  /** This bandit accounted for up to {@code k} rounds of one person (1: event level). */
  public DpLinearSpec withParticipations(int k) {
    return new DpLinearSpec(banditId, dimension, arms, contextClip, rewardClip, budget, horizon, refreshEvery,
        accountant, noise, rewardCenter, k);
  }

  /** A spec with uncentred rewards (m = 0). */
  public DpLinearSpec(String banditId, int dimension, int arms, double contextClip, double rewardClip,
      PrivacyBudget budget, long horizon, int refreshEvery, AccountantChoice accountant, NoiseChoice noise) {
    this(banditId, dimension, arms, contextClip, rewardClip, budget, horizon, refreshEvery, accountant, noise, 0);
  }

  private static void requirePositiveFinite(double value, String name) {
    if (!(value > 0) || Double.isInfinite(value)) {
      throw new IllegalArgumentException(name + " must be positive and finite: " + value);
    }
  }

  /** The default refresh period for horizon T: ceil(T / {@value #DEFAULT_RELEASES}), at most T / 2, at least 1. */
  public static int defaultRefreshEvery(long horizon) {
    long period = (horizon + DEFAULT_RELEASES - 1) / DEFAULT_RELEASES;
    return (int) Math.max(1, Math.min(Math.min(horizon / 2, period), Integer.MAX_VALUE));
  }

  /** Whether DP-Linear's statistics of dimension d fit: d (d + 3) / 2 at most {@value #MAX_LEAF_DIMENSION}. */
  public static boolean fits(int dimension) {
    return dimension >= 1 && leafDimension(dimension) <= MAX_LEAF_DIMENSION;
  }

  /** m = d (d + 1) / 2 + d: the Gram matrix's upper triangle and the moment vector. */
  public static int leafDimension(int dimension) {
    long m = (long) dimension * (dimension + 1) / 2 + dimension;
    return m > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) m;
  }

  public int leafDimension() {
    return leafDimension(dimension);
  }

  /** n = ceil(T / k): the releases (leaves) of one epoch. */
  public long releasesPerEpoch() {
    return (horizon + refreshEvery - 1) / refreshEvery;
  }

  /**
   * C, the l2 bound of one round's contribution to the leaf: ||svec(x x')||_2 = ||x||_2^2 &lt;= c^2 and
   * ||x r||_2 &lt;= c B, so sqrt(c^4 + c^2 B^2), widened by 2^-18 relative. The contribution is clipped to
   * C (1 - 2^-20) in floating point (a safety net: scaling (svec(x x'), x r) by a &lt;= 1 is the contribution of
   * (sqrt(a) x, sqrt(a) r), so the clipped contribution keeps its form) and then rounded to the mechanism's
   * lattice, whose error is at most sqrt(m) gamma / 2 &lt;= 2^10 H 2^-31 for m &lt;= 2^20 and gamma &lt;= H 2^-30
   * ({@link #halfSensitivity()}).
   */
  public double leafBound() {
    return leafBound(contextClip, rewardClip);
  }

  private static double leafBound(double contextClip, double rewardClip) {
    double exact = Math.sqrt(contextClip * contextClip * (contextClip * contextClip + rewardClip * rewardClip));
    return Math.nextUp(exact * (1 + 0x1p-18));
  }

  /**
   * Delta^2, the exact squared replace-one l2 sensitivity of the concatenated leaf of all arms (docs/bandit-privacy.md,
   * "What one user changes"): max over s in [0, 1] of 2 c^4 (1 - s^2) + 2 c^2 B^2 (1 + s), i.e.
   * 2 c^4 + 2 c^2 B^2 + B^4 / 2 when B^2 &lt;= 2 c^2 (at s = B^2 / (2 c^2)) and 4 c^2 B^2 otherwise (at s = 1).
   */
  static double squaredSensitivity(double contextClip, double rewardClip) {
    double c2 = contextClip * contextClip;
    double b2 = rewardClip * rewardClip;
    return b2 <= 2 * c2 ? 2 * c2 * c2 + 2 * c2 * b2 + b2 * b2 / 2 : 4 * c2 * b2;
  }

  /**
   * H = Delta / 2, widened by 2^-12 relative for floating point and lattice rounding (at most 2^-19 relative): the
   * prefix-sum mechanisms are calibrated for a replace-one leaf sensitivity of 2 H = Delta (core's
   * {@code PrefixSumPlan.l2LeafSensitivity}), which the argument in docs/bandit-privacy.md shows is what one user
   * changes in the concatenated leaf of all arms. At most C: a contribution may be longer than H, a difference
   * of two is never longer than 2 H.
   */
  public double halfSensitivity() {
    return halfSensitivity(contextClip, rewardClip);
  }

  private static double halfSensitivity(double contextClip, double rewardClip) {
    return Math.nextUp(Math.sqrt(squaredSensitivity(contextClip, rewardClip)) / 2 * (1 + 0x1p-12));
  }

  /**
   * The most lattice units one round adds to a coordinate of its arm's pending leaf: a contribution's coordinates are
   * at most its l2 norm, at most C, and rounding adds at most half a unit. The lattice is that of increments clipped
   * to H (spacing 2^(e - 30) for H in [2^e, 2^(e+1))) and C / H lies in [1, sqrt 2], so this is between 2^30 and
   * 2^31.5 whatever the clips.
   */
  static long maxUnitsPerContribution(double contextClip, double rewardClip) {
    double granularity = TreeNoisePlan.latticeForBound(halfSensitivity(contextClip, rewardClip)).granularity();
    return (long) Math.floor(leafBound(contextClip, rewardClip) / granularity + 0.5);
  }

  /**
   * The longest refresh period whose pending sums provably stay exact: refreshEvery contributions of at most
   * {@link #maxUnitsPerContribution} units each stay below {@link #MAX_PENDING_UNITS} (2^20.5 to 2^22 rounds).
   */
  public static long maxRefreshEvery(double contextClip, double rewardClip) {
    return (long) ((MAX_PENDING_UNITS - 1) / maxUnitsPerContribution(contextClip, rewardClip));
  }

  /**
   * The prefix-sum stream of arm i's statistics, expressed as a core model spec so any prefix-sum plan
   * (tree, factorization, and later ones) plugs in: dimension m, whole-leaf bound H (sensitivity 2 H), the whole
   * budget (see the package documentation), horizon n, and k = {@link #participations} participations of one
   * person. The loss, domain and data bounds are placeholders the plans ignore under whole-increment clipping in l2.
   *
   * <p>Person level: a person's k rounds may share leaves (a leaf sums refreshEvery rounds), so a leaf may move by
   * up to k times one round's 2 H. The factorization's bound, k times one leaf's sensitivity by the triangle
   * inequality over the k rounds, holds however they share leaves; the tree's Phi_k needs one round per leaf, so
   * the spec admits it with refreshEvery 1 only.
   */
  public OnlineModelSpec statisticsSpec(int arm) {
    if (arm < 0 || arm >= arms) {
      throw new IllegalArgumentException("arm must be in [0, " + arms + "): " + arm);
    }
    return OnlineModelSpec.withDerivedClipping(banditId + "/arm-" + arm + "/stats", leafDimension(),
            GlmLoss.squared(), LpBall.of(2, 1), budget, releasesPerEpoch(), new DataBounds(1, 1), accountant)
        .withIncrementClipping(IncrementClipping.fixed(halfSensitivity()))
        .withNoise(noise)
        .withParticipations(participations);
  }

  /** The arms' release ids and their statistics' noise stream ids ({@code banditId/arm-i/stats}). */
  @Override
  public List<String> derivedIds() {
    List<String> ids = new ArrayList<>(BanditSpec.super.derivedIds());
    for (int arm = 0; arm < arms; arm++) {
      ids.add(statisticsSpec(arm).modelId());
    }
    return ids;
  }

  /** The plan every arm's statistics are released with (all arms share it). */
  public PrefixSumPlan plan() {
    return PrefixSumPlan.choose(statisticsSpec(0));
  }

  /** Any finite reward: it is scaled with its context and clipped to [-B, B] before it is learnt. */
  @Override
  public void requireReward(double reward) {
    if (!Double.isFinite(reward)) {
      throw new IllegalArgumentException("reward is not finite: " + reward);
    }
  }

  @Override
  public String policyName() {
    return DpLinearPolicy.NAME;
  }

  /** A SHA-256 digest of every field; saved state carries it so it is never resumed under another spec. */
  public byte[] fingerprint() {
    String canonical = String.join("|", "dp-linear-spec-v2", banditId, Integer.toString(dimension),
        Integer.toString(arms), Double.toString(contextClip), Double.toString(rewardClip),
        Double.toString(budget.epsilon()), Double.toString(budget.delta()), Long.toString(horizon),
        Integer.toString(refreshEvery), accountant.name(), noise.name(), Double.toString(rewardCenter))
        // Only at person level, so event-level bandits keep their fingerprints and saved states.
        + (participations > 1 ? "|participations|" + participations : "");
    try {
      return MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }
}
