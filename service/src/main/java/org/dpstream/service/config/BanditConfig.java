package org.dpstream.service.config;

import java.time.Duration;
import java.util.Locale;
import org.dpstream.bandit.BanditSpec;
import org.dpstream.bandit.DefaultPolicy;
import org.dpstream.bandit.hdb.DpHdbPolicy;
import org.dpstream.bandit.hdb.DpHdbSpec;
import org.dpstream.bandit.linear.DpLinearPolicy;
import org.dpstream.bandit.linear.DpLinearSpec;
import org.dpstream.core.loss.CanonicalLink;
import org.dpstream.core.loss.DataBounds;
import org.dpstream.core.loss.InverseLink;
import org.dpstream.core.online.AccountantChoice;
import org.dpstream.core.online.NoiseChoice;
import org.dpstream.core.privacy.accounting.PrivacyBudget;

/**
 * One bandit (DP-HDB or DP-Linear) as written in the service's config file (under {@code bandits:}). Everything here
 * is public configuration; the bounds are declared, never measured on the private stream.
 *
 * @param id bandit id: the key of its contexts, rewards, decisions and release steps (with {@code releaseFormat: arms},
 *     arm i is released as model {@code id/arm-i})
 * @param dimension d, the context dimension
 * @param arms K
 * @param link DP-HDB: {@code identity} (squared loss, the default) or {@code logistic} (rewards in [0, 1])
 * @param radius of the l1 ball every arm's parameters live in; default 1
 * @param preSelectionGap h_sub &gt; 0 of Assumption 4.1; {@code inf} (the default) pre-selects every arm
 * @param t0 forced-sampling rounds per arm; null: the authors' ln(d T) ln(T) / eps^2
 * @param epsilon budget of the release of all arms' parameters w.r.t. one user's (context, reward)
 * @param delta budget
 * @param horizon T, the rounds the arms' calibration is made for (past it a new epoch starts)
 * @param contextBound declared ||x||_inf bound (the dual norm of l1); default 1
 * @param rewardBound declared |r| bound (DP-Linear: the bound on |r - rewardCenter|, the reward range's
 *     half-width)
 * @param rewardTimeout how long (in stream time, i.e. record timestamps) a decision waits for its
 *     reward, e.g. {@code 30s}, {@code 500ms}, {@code 5m}
 * @param missingReward what an expired decision does: {@code drop} (no round) or {@code impute}
 *     (one round with {@code defaultReward}); default drop
 * @param defaultReward the public reward imputed for an expired decision (required with impute)
 * @param releaseEvery publish the arms' parameters every k-th round; default 1 (DP-HDB; DP-Linear
 *     publishes each of its releases, every {@code refreshEvery} rounds)
 * @param policy {@code dp-linear} or {@code dp-hdb} (docs/bandit-service.md); DP-Linear ignores link, radius,
 *     preSelectionGap, t0 and contextBound. Default: {@link DefaultPolicy#nameFor} of (d, K, horizon, epsilon),
 *     DP-Linear wherever its statistics fit (docs/design/bandit-default-protocol.md)
 * @param contextClip DP-Linear: contexts are scaled (with their rewards) to ||x||_2 &lt;= this; default 1
 * @param refreshEvery DP-Linear: statistics released and ridge solutions refreshed every k rounds; default
 *     ceil(horizon / 100) ({@link DpLinearSpec#defaultRefreshEvery})
 * @param accountant DP-Linear: {@code factorization} (the square-root factorization, default) or {@code zcdp}
 *     (Gaussian tree)
 * @param noise {@code discrete} (the default where it applies: DP-HDB's arms, DP-Linear under zcdp; no
 *     floating-point noise) or {@code continuous} (DP-HDB: Gumbel-max; DP-Linear: the Ziggurat Gaussian, the only
 *     choice under factorization, so DP-Linear's default)
 * @param rewardCenter DP-Linear: m, a public constant subtracted from every reward before it is scaled and clipped to
 *     [-rewardBound, rewardBound]; declare the midpoint of the reward range and its half-width as rewardBound
 *     (rewards in [0, 1]: rewardCenter 0.5, rewardBound 0.5). Default 0
 * @param noiseGeneration the bandit's noise generation, default 0: declare the next one after its state was lost
 *     (see {@link ModelConfig#noiseGeneration()})
 * @param privacyUnit {@code event} (the default: one round) or {@code {by: user, maxContributions: k, header: h}}
 *     ({@link PrivacyUnit}): at most k rounds per person, the person named by the decision request's {@code userId}
 *     (or the Kafka header h of the request on dp.contexts), every arm accounted for k rounds of one person
 * @param releaseFormat {@code step} (the default: one record per release step, key = the bandit id) or {@code arms}
 *     (one record per arm, {@code id/arm-i}, for readers that follow single arms): {@link BanditReleaseFormat}
 */
public record BanditConfig(
    String id,
    int dimension,
    int arms,
    String link,
    Double radius,
    String preSelectionGap,
    Long t0,
    double epsilon,
    double delta,
    long horizon,
    Double contextBound,
    double rewardBound,
    String rewardTimeout,
    String missingReward,
    Double defaultReward,
    Integer releaseEvery,
    String policy,
    Double contextClip,
    Integer refreshEvery,
    String accountant,
    String noise,
    Double rewardCenter,
    Integer noiseGeneration,
    Object privacyUnit,
    String releaseFormat) {

  /** A bandit publishing its steps in the default format (the fields before {@code releaseFormat}). */
  public BanditConfig(String id, int dimension, int arms, String link, Double radius, String preSelectionGap, Long t0,
      double epsilon, double delta, long horizon, Double contextBound, double rewardBound, String rewardTimeout,
      String missingReward, Double defaultReward, Integer releaseEvery, String policy, Double contextClip,
      Integer refreshEvery, String accountant, String noise, Double rewardCenter, Integer noiseGeneration,
      Object privacyUnit) {
    this(id, dimension, arms, link, radius, preSelectionGap, t0, epsilon, delta, horizon, contextBound, rewardBound,
        rewardTimeout, missingReward, defaultReward, releaseEvery, policy, contextClip, refreshEvery, accountant, noise,
        rewardCenter, noiseGeneration, privacyUnit, null);
  }

  /** An event-level bandit (the fields before {@code privacyUnit}). */
  public BanditConfig(String id, int dimension, int arms, String link, Double radius, String preSelectionGap, Long t0,
      double epsilon, double delta, long horizon, Double contextBound, double rewardBound, String rewardTimeout,
      String missingReward, Double defaultReward, Integer releaseEvery, String policy, Double contextClip,
      Integer refreshEvery, String accountant, String noise, Double rewardCenter, Integer noiseGeneration) {
    this(id, dimension, arms, link, radius, preSelectionGap, t0, epsilon, delta, horizon, contextBound, rewardBound,
        rewardTimeout, missingReward, defaultReward, releaseEvery, policy, contextClip, refreshEvery, accountant, noise,
        rewardCenter, noiseGeneration, null);
  }

  /** A bandit of noise generation 0 (the fields before {@code noiseGeneration}). */
  public BanditConfig(String id, int dimension, int arms, String link, Double radius, String preSelectionGap, Long t0,
      double epsilon, double delta, long horizon, Double contextBound, double rewardBound, String rewardTimeout,
      String missingReward, Double defaultReward, Integer releaseEvery, String policy, Double contextClip,
      Integer refreshEvery, String accountant, String noise, Double rewardCenter) {
    this(id, dimension, arms, link, radius, preSelectionGap, t0, epsilon, delta, horizon, contextBound, rewardBound,
        rewardTimeout, missingReward, defaultReward, releaseEvery, policy, contextClip, refreshEvery, accountant, noise,
        rewardCenter, null);
  }

  /** A bandit with uncentred rewards (the fields before {@code rewardCenter}). */
  public BanditConfig(String id, int dimension, int arms, String link, Double radius, String preSelectionGap, Long t0,
      double epsilon, double delta, long horizon, Double contextBound, double rewardBound, String rewardTimeout,
      String missingReward, Double defaultReward, Integer releaseEvery, String policy, Double contextClip,
      Integer refreshEvery, String accountant, String noise) {
    this(id, dimension, arms, link, radius, preSelectionGap, t0, epsilon, delta, horizon, contextBound, rewardBound,
        rewardTimeout, missingReward, defaultReward, releaseEvery, policy, contextClip, refreshEvery, accountant, noise,
        null, null);
  }

  /** The same bandit in noise generation {@code generation}. */
  public BanditConfig withNoiseGeneration(int generation) {
    return new BanditConfig(id, dimension, arms, link, radius, preSelectionGap, t0, epsilon, delta, horizon,
        contextBound, rewardBound, rewardTimeout, missingReward, defaultReward, releaseEvery, policy, contextClip,
        refreshEvery, accountant, noise, rewardCenter, generation, privacyUnit, releaseFormat);
  }

  /** The same bandit publishing its release steps in {@code format} ({@code step} or {@code arms}). */
  public BanditConfig withReleaseFormat(String format) {
    return new BanditConfig(id, dimension, arms, link, radius, preSelectionGap, t0, epsilon, delta, horizon,
        contextBound, rewardBound, rewardTimeout, missingReward, defaultReward, releaseEvery, policy, contextClip,
        refreshEvery, accountant, noise, rewardCenter, noiseGeneration, privacyUnit, format);
  }

  /** A bandit with the default noise (the fields before {@code noise}). */
  public BanditConfig(String id, int dimension, int arms, String link, Double radius, String preSelectionGap, Long t0,
      double epsilon, double delta, long horizon, Double contextBound, double rewardBound, String rewardTimeout,
      String missingReward, Double defaultReward, Integer releaseEvery, String policy, Double contextClip,
      Integer refreshEvery, String accountant) {
    this(id, dimension, arms, link, radius, preSelectionGap, t0, epsilon, delta, horizon, contextBound, rewardBound,
        rewardTimeout, missingReward, defaultReward, releaseEvery, policy, contextClip, refreshEvery, accountant, null,
        null);
  }

  /** A DP-HDB bandit (the fields before {@code policy}). */
  public BanditConfig(String id, int dimension, int arms, String link, Double radius, String preSelectionGap, Long t0,
      double epsilon, double delta, long horizon, Double contextBound, double rewardBound, String rewardTimeout,
      String missingReward, Double defaultReward, Integer releaseEvery) {
    this(id, dimension, arms, link, radius, preSelectionGap, t0, epsilon, delta, horizon, contextBound, rewardBound,
        rewardTimeout, missingReward, defaultReward, releaseEvery, DpHdbPolicy.NAME, null, null, null);
  }

  public BanditConfig {
    policy = policy == null ? defaultPolicy(dimension, arms, horizon, epsilon) : policy;
    link = link == null ? "identity" : link;
    preSelectionGap = preSelectionGap == null ? "inf" : preSelectionGap;
    radius = radius == null ? 1.0 : radius;
    contextBound = contextBound == null ? 1.0 : contextBound;
    missingReward = missingReward == null ? "drop" : missingReward;
    releaseEvery = releaseEvery == null ? 1 : releaseEvery;
    noiseGeneration = noiseGeneration == null ? 0 : noiseGeneration;
  }

  /** The default rule's policy, or DP-Linear's name when the spec is invalid (toEntry then says why). */
  private static String defaultPolicy(int dimension, int arms, long horizon, double epsilon) {
    try {
      return DefaultPolicy.nameFor(dimension, arms, horizon, epsilon);
    } catch (IllegalArgumentException e) {
      return DpLinearPolicy.NAME;
    }
  }

  /** What happens to a decision whose reward did not come within the timeout. */
  public enum MissingReward {
    /** No round: nothing is learnt from the decision. */
    DROP,
    /** One round with the configured public default reward, on the decision's real context. */
    IMPUTE
  }

  /** Parses and checks everything; messages name the bandit and the field. */
  public BanditRegistry.Entry toEntry() {
    try {
      String banditId = require(id, "id");
      if (banditId.indexOf('\u0000') >= 0 || banditId.indexOf('\u0001') >= 0) {
        // They separate the parts of the bandit's store keys (RequestKey).
        throw new IllegalArgumentException("id must not contain NUL or U+0001");
      }
      PrivacyUnit unit = PrivacyUnit.parse(privacyUnit);
      PrivacyBudget budget = new PrivacyBudget(epsilon, delta);
      String policyName = policy.strip().toLowerCase(Locale.ROOT);
      BanditSpec spec;
      if (policyName.equals(DpLinearPolicy.NAME)) {
        spec = linearSpec(banditId, budget);
      } else if (policyName.equals(DpHdbPolicy.NAME)) {
        InverseLink inverseLink = switch (require(link, "link").toLowerCase(Locale.ROOT)) {
          case "identity", "linear" -> CanonicalLink.IDENTITY;
          case "logistic" -> CanonicalLink.LOGISTIC;
          default -> throw new IllegalArgumentException("link must be identity or logistic, got " + link);
        };
        double gap = parseGap(require(preSelectionGap, "preSelectionGap"));
        DataBounds bounds = new DataBounds(contextBound, rewardBound);
        long warmUp = t0 == null ? DpHdbSpec.defaultWarmUpRoundsPerArm(dimension, horizon, epsilon) : t0;
        NoiseChoice armNoise = noise == null ? NoiseChoice.DISCRETE : NoiseChoice.parse(noise);
        spec = new DpHdbSpec(banditId, dimension, arms, inverseLink, radius, gap, warmUp, budget, horizon, bounds,
            armNoise);
      } else {
        throw new IllegalArgumentException("policy must be dp-hdb or dp-linear, got " + policy);
      }
      spec = withParticipations(spec, unit.participations());
      Duration timeout = parseDuration(require(rewardTimeout, "rewardTimeout"));
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("rewardTimeout must be positive, got " + rewardTimeout);
      }
      MissingReward policy;
      try {
        policy = MissingReward.valueOf(missingReward.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("missingReward must be drop or impute, got " + missingReward);
      }
      double imputed = Double.NaN;
      if (policy == MissingReward.IMPUTE) {
        if (defaultReward == null) {
          throw new IllegalArgumentException("missingReward: impute needs a defaultReward");
        }
        imputed = defaultReward;
        if (!Double.isFinite(imputed)) {
          throw new IllegalArgumentException("defaultReward must be finite, got " + imputed);
        }
        spec.requireReward(imputed);
      } else if (defaultReward != null) {
        throw new IllegalArgumentException("defaultReward is only used with missingReward: impute");
      }
      if (releaseEvery < 1) {
        throw new IllegalArgumentException("releaseEvery must be at least 1, got " + releaseEvery);
      }
      if (noiseGeneration < 0) {
        throw new IllegalArgumentException("noiseGeneration must be at least 0, got " + noiseGeneration);
      }
      return new BanditRegistry.Entry(spec, timeout, policy, imputed, releaseEvery, noiseGeneration, unit,
          BanditReleaseFormat.parse(releaseFormat));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("bandit " + id + ": " + e.getMessage(), e);
    }
  }

  /** The spec accounted for k rounds of one person (the spec itself at event level: its bits unchanged). */
  private static BanditSpec withParticipations(BanditSpec spec, int k) {
    if (k == 1) {
      return spec;
    }
    if (spec instanceof DpLinearSpec linear) {
      return linear.withParticipations(k);
    }
    return ((DpHdbSpec) spec).withParticipations(k);
  }

  private DpLinearSpec linearSpec(String banditId, PrivacyBudget budget) {
    double clip = contextClip == null ? 1.0 : contextClip;
    int period = refreshEvery == null ? DpLinearSpec.defaultRefreshEvery(horizon) : refreshEvery;
    String accountantName = accountant == null ? "factorization" : accountant.strip().toLowerCase(Locale.ROOT);
    AccountantChoice choice = switch (accountantName) {
      case "zcdp" -> AccountantChoice.ZCDP;
      case "factorization" -> AccountantChoice.FACTORIZATION;
      default -> throw new IllegalArgumentException("accountant must be zcdp or factorization for dp-linear, got "
          + accountant);
    };
    // The tree's node noise is exact (discrete Gaussian on the lattice) under zcdp by default, as for the online
    // models; the factorization's noise has real coefficients, so it can only be continuous (docs/privacy-layer.md).
    NoiseChoice sampling = noise == null
        ? (choice == AccountantChoice.ZCDP ? NoiseChoice.DISCRETE : NoiseChoice.CONTINUOUS)
        : NoiseChoice.parse(noise);
    if (sampling == NoiseChoice.DISCRETE && choice != AccountantChoice.ZCDP) {
      throw new IllegalArgumentException("noise: discrete needs accountant: zcdp for dp-linear (the factorization's"
          + " noise has real coefficients); use noise: continuous");
    }
    try {
      return new DpLinearSpec(banditId, dimension, arms, clip, rewardBound, budget, horizon, period, choice, sampling,
          rewardCenter == null ? 0 : rewardCenter);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(e.getMessage().replace("rewardClip", "rewardBound"), e);
    }
  }

  static double parseGap(String text) {
    String trimmed = text.trim();
    if (trimmed.equalsIgnoreCase("inf") || trimmed.equalsIgnoreCase("infinity")) {
      return Double.POSITIVE_INFINITY;
    }
    return Double.parseDouble(trimmed);
  }

  /** {@code 250ms}, {@code 30s}, {@code 5m}, {@code 2h}, or an ISO-8601 duration ({@code PT30S}). */
  static Duration parseDuration(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    try {
      if (t.startsWith("pt") || t.startsWith("p")) {
        return Duration.parse(text.trim());
      }
      if (t.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2).trim()));
      }
      long amount = Long.parseLong(t.substring(0, t.length() - 1).trim());
      return switch (t.charAt(t.length() - 1)) {
        case 's' -> Duration.ofSeconds(amount);
        case 'm' -> Duration.ofMinutes(amount);
        case 'h' -> Duration.ofHours(amount);
        default -> throw new IllegalArgumentException("unit");
      };
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("not a duration (e.g. 500ms, 30s, 5m, 1h): " + text);
    }
  }

  private static String require(String value, String field) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(field + " is required");
    }
    return value;
  }
}
