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
 * @param rewardClip B &gt; 0: the scaled reward is clipped to [-B, B]
 * @param budget (epsilon, delta) of the release of all arms' statistics with respect to one user's
 *     (context, reward): see the package documentation
 * @param horizon T, the rounds one epoch of the releases is calibrated for
 * @param refreshEvery k &gt;= 1: the statistics are released (and the ridge solutions refreshed) once
 *     every k rounds, each leaf holding k rounds' contributions
 * @param accountant the prefix-sum mechanism of the statistics: ZCDP (Gaussian tree) or FACTORIZATION;
 *     the noise must be Gaussian in l2 for the joint accounting (PAPER and AUTO are refused)
 * @param noise continuous or discrete Gaussian node noise (the tree's)
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
    NoiseChoice noise) implements BanditSpec {

  /** The largest statistics leaf the lattice rounding argument of {@link #leafBound()} covers. */
  static final int MAX_LEAF_DIMENSION = 1 << 20;

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
    if (refreshEvery < 1) {
      throw new IllegalArgumentException("refreshEvery must be at least 1: " + refreshEvery);
    }
    if (horizon < 2L * refreshEvery) {
      throw new IllegalArgumentException("horizon must be at least two refresh periods: T=" + horizon + ", k=" + refreshEvery);
    }
    if (accountant != AccountantChoice.ZCDP && accountant != AccountantChoice.FACTORIZATION) {
      throw new IllegalArgumentException("accountant must be zcdp or factorization for dp-linear (Gaussian noise in l2), got "
          + accountant.name().toLowerCase(java.util.Locale.ROOT));
    }
  }

  private static void requirePositiveFinite(double value, String name) {
    if (!(value > 0) || Double.isInfinite(value)) {
      throw new IllegalArgumentException(name + " must be positive and finite: " + value);
    }
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
   * C, the l2 bound of one round's contribution to the leaf: ||upper(x x')||_2 &lt;= ||x||_2^2 &lt;= c^2 and
   * ||x r||_2 &lt;= c B, so sqrt(c^4 + c^2 B^2), widened by 2^-18 relative. The contribution is clipped to
   * C (1 - 2^-20) in floating point and then rounded to the mechanism's lattice, whose error is at most
   * sqrt(m) gamma / 2 &lt;= 2^10 C 2^-31 for m &lt;= 2^20 and gamma &lt;= C 2^-30: so a rounded contribution
   * has norm at most C.
   */
  public double leafBound() {
    double exact = Math.sqrt(contextClip * contextClip * (contextClip * contextClip + rewardClip * rewardClip));
    return Math.nextUp(exact * (1 + 0x1p-18));
  }

  /**
   * The prefix-sum stream of arm i's statistics, expressed as a core model spec so any prefix-sum plan
   * (tree, factorization, and later ones) plugs in: dimension m, whole-leaf clipping at C, the whole
   * budget (see the package documentation), horizon n. The loss, domain and data bounds are placeholders the
   * plans ignore under whole-increment clipping in l2.
   */
  public OnlineModelSpec statisticsSpec(int arm) {
    if (arm < 0 || arm >= arms) {
      throw new IllegalArgumentException("arm must be in [0, " + arms + "): " + arm);
    }
    return OnlineModelSpec.withDerivedClipping(banditId + "/arm-" + arm + "/stats", leafDimension(),
            GlmLoss.squared(), LpBall.of(2, 1), budget, releasesPerEpoch(), new DataBounds(1, 1), accountant)
        .withIncrementClipping(IncrementClipping.fixed(leafBound()))
        .withNoise(noise);
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
    String canonical = String.join("|", "dp-linear-spec-v1", banditId, Integer.toString(dimension),
        Integer.toString(arms), Double.toString(contextClip), Double.toString(rewardClip),
        Double.toString(budget.epsilon()), Double.toString(budget.delta()), Long.toString(horizon),
        Integer.toString(refreshEvery), accountant.name(), noise.name());
    try {
      return MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }
}
