package org.dpstream.service.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.dpstream.core.geometry.LpBall;
import org.dpstream.core.loss.DataBounds;
import org.dpstream.core.loss.GlmLoss;
import org.dpstream.core.loss.SampleLoss;
import org.dpstream.core.online.AccountantChoice;
import org.dpstream.core.online.ClipBounds;
import org.dpstream.core.online.FeatureBoundScaling;
import org.dpstream.core.online.IncrementClipping;
import org.dpstream.core.online.NoiseChoice;
import org.dpstream.core.online.OnlineModelSpec;
import org.dpstream.core.online.TreeNoisePlan;
import org.dpstream.core.privacy.accounting.PrivacyBudget;

/**
 * One model as written in the service's config file. Every number here is public configuration:
 * the bounds are declared by the data's owner, never measured on the private stream.
 *
 * @param id model id, the key of its samples and releases
 * @param dimension d
 * @param loss {@code squared} or {@code logistic} (labels in [0, 1])
 * @param p the lp geometry, a number >= 1 or {@code inf}
 * @param radius of the lp ball the parameters live in
 * @param epsilon budget of the whole release sequence
 * @param delta budget
 * @param horizon n, capacity of one tree epoch
 * @param featureNormBound declared bound on ||x||_q, q the dual of p
 * @param labelBound declared bound on |y|
 * @param gradientClip optional override of L (null: derived from the loss and bounds)
 * @param differenceClip optional override of beta D (null: derived)
 * @param accountant {@code paper}, {@code zcdp} or {@code auto} (default)
 * @param releaseEvery publish every k-th step (post-processing; default 1 = every step)
 * @param clip how DP-TOFW bounds one increment ({@link ClipConfig}); default adaptive for p &gt; 1 unless the
 *     accountant is paper, else worst-case
 * @param learningRate lr of DP-TOFW's step size min(1, lr / (t + 1)); default 1, the paper's. Public:
 *     tuning it on the private stream spends privacy
 * @param noise {@code discrete} or {@code continuous}: {@code discrete} samples every noise of DP-TOFW exactly on
 *     the lattice (the tree's nodes, adaptive clipping's histogram; needs p &gt; 1 and accountant zcdp or auto,
 *     where auto then means the zCDP tree). Default: discrete where it applies, else continuous (p = 1, or
 *     accountant paper, factorization or blt)
 * @param featureBounds optional declared public bounds |x_j| &lt;= b_j, one per feature: samples are clamped to
 *     them and divided by them before the estimator, so {@code radius}, {@code featureNormBound} and the clip
 *     settings are in those scaled units (features in [-1, 1]) and releases carry parameters in the original
 *     units; null: samples are used as they come
 * @param noiseGeneration the model's noise generation, default 0: declare the next one after the model's state was
 *     lost (an application reset, a deleted changelog, a new applicationId, a restored backup), when the service
 *     refuses to start it again at coordinates it published (STATE_LOST, STATE_BEHIND_RELEASES). A new generation
 *     starts at step 1 under new noise coordinates; its releases state what the earlier ones spent
 * @param privacyUnit {@code event} (default) or {@code {by: user, maxContributions: k, header: h}} ({@link
 *     PrivacyUnit}): at person level each person's samples are bounded to k and every mechanism is accounted for k
 */
public record ModelConfig(
    String id,
    int dimension,
    String loss,
    String p,
    double radius,
    double epsilon,
    double delta,
    long horizon,
    double featureNormBound,
    double labelBound,
    Double gradientClip,
    Double differenceClip,
    String accountant,
    Integer releaseEvery,
    ClipConfig clip,
    Double learningRate,
    String noise,
    List<Double> featureBounds,
    Integer noiseGeneration,
    Object privacyUnit) {

  public ModelConfig {
    accountant = accountant == null ? "auto" : accountant;
    noiseGeneration = noiseGeneration == null ? 0 : noiseGeneration;
    releaseEvery = releaseEvery == null ? 1 : releaseEvery;
    learningRate = learningRate == null ? 1.0 : learningRate;
    featureBounds = featureBounds == null ? null : Collections.unmodifiableList(new ArrayList<>(featureBounds));
  }

  /** An event-level model. */
  public ModelConfig(String id, int dimension, String loss, String p, double radius, double epsilon, double delta,
      long horizon, double featureNormBound, double labelBound, Double gradientClip, Double differenceClip,
      String accountant, Integer releaseEvery, ClipConfig clip, Double learningRate, String noise,
      List<Double> featureBounds, Integer noiseGeneration) {
    this(id, dimension, loss, p, radius, epsilon, delta, horizon, featureNormBound, labelBound, gradientClip,
        differenceClip, accountant, releaseEvery, clip, learningRate, noise, featureBounds, noiseGeneration, null);
  }

  /** A model of noise generation 0. */
  public ModelConfig(String id, int dimension, String loss, String p, double radius, double epsilon, double delta,
      long horizon, double featureNormBound, double labelBound, Double gradientClip, Double differenceClip,
      String accountant, Integer releaseEvery, ClipConfig clip, Double learningRate, String noise,
      List<Double> featureBounds) {
    this(id, dimension, loss, p, radius, epsilon, delta, horizon, featureNormBound, labelBound, gradientClip,
        differenceClip, accountant, releaseEvery, clip, learningRate, noise, featureBounds, null);
  }

  /** The same model in noise generation {@code generation}. */
  public ModelConfig withNoiseGeneration(int generation) {
    return new ModelConfig(id, dimension, loss, p, radius, epsilon, delta, horizon, featureNormBound, labelBound,
        gradientClip, differenceClip, accountant, releaseEvery, clip, learningRate, noise, featureBounds, generation,
        privacyUnit);
  }

  /** The same model with privacy unit {@code unit} (as written in the config: {@code event} or a map). */
  public ModelConfig withPrivacyUnit(Object unit) {
    return new ModelConfig(id, dimension, loss, p, radius, epsilon, delta, horizon, featureNormBound, labelBound,
        gradientClip, differenceClip, accountant, releaseEvery, clip, learningRate, noise, featureBounds,
        noiseGeneration, unit);
  }

  /** The model's privacy unit, parsed; the message names the model. */
  public PrivacyUnit unit() {
    try {
      return PrivacyUnit.parse(privacyUnit);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("model " + id + ": " + e.getMessage(), e);
    }
  }

  /** A model whose samples are used as they come (no featureBounds). */
  public ModelConfig(String id, int dimension, String loss, String p, double radius, double epsilon, double delta,
      long horizon, double featureNormBound, double labelBound, Double gradientClip, Double differenceClip,
      String accountant, Integer releaseEvery, ClipConfig clip, Double learningRate, String noise) {
    this(id, dimension, loss, p, radius, epsilon, delta, horizon, featureNormBound, labelBound, gradientClip,
        differenceClip, accountant, releaseEvery, clip, learningRate, noise, null);
  }

  /** A model with the paper's clipping and step size, and the default noise. */
  public ModelConfig(String id, int dimension, String loss, String p, double radius, double epsilon, double delta,
      long horizon, double featureNormBound, double labelBound, Double gradientClip, Double differenceClip,
      String accountant, Integer releaseEvery) {
    this(id, dimension, loss, p, radius, epsilon, delta, horizon, featureNormBound, labelBound, gradientClip,
        differenceClip, accountant, releaseEvery, null, null, null, null);
  }

  /** Parses and checks everything; the message names the model and the field. */
  public OnlineModelSpec toSpec() {
    try {
      LpBall domain = LpBall.of(parseP(p), radius);
      SampleLoss sampleLoss = switch (require(loss, "loss").toLowerCase(Locale.ROOT)) {
        case "squared" -> GlmLoss.squared();
        case "logistic" -> GlmLoss.logistic();
        default -> throw new IllegalArgumentException("loss must be squared or logistic, got " + loss);
      };
      PrivacyBudget budget = new PrivacyBudget(epsilon, delta);
      AccountantChoice choice = AccountantChoice.parse(require(accountant, "accountant"));
      String noiseName = noise != null ? noise : defaultNoise(domain.exponent(), choice);
      NoiseChoice sampling = NoiseChoice.parse(noiseName);
      DataBounds bounds = new DataBounds(featureNormBound, labelBound);
      ClipBounds derived = ClipBounds.derived(sampleLoss, domain, bounds);
      ClipBounds clipBounds = new ClipBounds(
          gradientClip == null ? derived.gradient() : gradientClip,
          differenceClip == null ? derived.difference() : differenceClip);
      if (releaseEvery < 1) {
        throw new IllegalArgumentException("releaseEvery must be at least 1, got " + releaseEvery);
      }
      if (noiseGeneration < 0) {
        throw new IllegalArgumentException("noiseGeneration must be at least 0, got " + noiseGeneration);
      }
      IncrementClipping clipping = (clip != null ? clip : defaultClip(domain.exponent(), choice, horizon)).toClipping();
      if ((clipping.isWhole() || clipping.isAdaptive()) && domain.exponent() == 1) {
        throw new IllegalArgumentException("clip.mode: " + clipping.mode().name().toLowerCase(Locale.ROOT)
            + " is for p > 1 (DP-TOFW); DP-POFW (p = 1) uses the worst case");
      }
      if (clipping.isAdaptive() && choice == AccountantChoice.PAPER) {
        throw new IllegalArgumentException("clip.mode: adaptive is accounted in zCDP: use accountant zcdp,"
            + " factorization or auto, or clip.mode: worst-case or fixed with accountant: paper");
      }
      OnlineModelSpec spec = new OnlineModelSpec(require(id, "id"), dimension, sampleLoss, domain, budget, horizon, clipBounds, choice,
          bounds, clipping, learningRate, sampling, featureScaling(featureBounds, dimension),
          PrivacyUnit.parse(privacyUnit).participations());
      if (sampling == NoiseChoice.DISCRETE && domain.exponent() > 1) {
        TreeNoisePlan.choose(spec); // the calibrated sigma must be within the discrete sampler's range
      }
      return spec;
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("model " + id + ": " + e.getMessage(), e);
    }
  }

  /**
   * Adaptive clipping where it applies (DP-TOFW under a zCDP accountant): it measured 3.6x below the worst case
   * with the zCDP tree at p = 1.5, d = 5 and 9x at d = 20 (docs/results.md); worst case otherwise (p = 1, the
   * paper's accountant, or a horizon below 4, too short for a warm-up block and another).
   */
  static ClipConfig defaultClip(double p, AccountantChoice accountant, long horizon) {
    return p > 1 && accountant != AccountantChoice.PAPER && horizon >= 4 ? ClipConfig.ADAPTIVE : ClipConfig.WORST_CASE;
  }

  /** Null if none are declared; the message names the key and the entry. */
  static FeatureBoundScaling featureScaling(List<Double> featureBounds, int dimension) {
    if (featureBounds == null) {
      return null;
    }
    if (featureBounds.size() != dimension) {
      throw new IllegalArgumentException("featureBounds has " + featureBounds.size() + " entries, the model's dimension"
          + " is " + dimension + " (one bound per feature)");
    }
    double[] bounds = new double[dimension];
    for (int j = 0; j < dimension; j++) {
      Double b = featureBounds.get(j);
      if (b == null || !(b > 0) || !Double.isFinite(b)) {
        throw new IllegalArgumentException("featureBounds[" + j + "] must be a finite number > 0, got " + b);
      }
      bounds[j] = b;
    }
    return FeatureBoundScaling.of(bounds);
  }

  /**
   * Discrete wherever the spec admits it, i.e. under a zCDP accountant ({@code auto} or {@code zcdp}): DP-TOFW
   * (p &gt; 1) then draws its noise from the exact discrete Gaussian (auto meaning the exact BLT where it predicts
   * less error than the zCDP tree, else that tree; its online step measured within the 500k steps/s target,
   * docs/benchmarks.md), and DP-POFW (p = 1) its vertex from the fixed-point exponential mechanism over lattice
   * scores. Both sample no floating-point noise, and their sampling work does not depend on the data. Continuous
   * elsewhere: no exact sampler applies to paper or factorization, and blt keeps the continuous BLT unless
   * {@code noise: discrete} is set.
   */
  static String defaultNoise(double p, AccountantChoice accountant) {
    boolean exactApplies = accountant == AccountantChoice.AUTO || accountant == AccountantChoice.ZCDP;
    return exactApplies ? "discrete" : "continuous";
  }

  static double parseP(String p) {
    String text = require(p, "p").trim();
    if (text.equalsIgnoreCase("inf") || text.equalsIgnoreCase("infinity")) {
      return Double.POSITIVE_INFINITY;
    }
    double value = Double.parseDouble(text);
    if (!(value >= 1)) {
      throw new IllegalArgumentException("p must be >= 1 or inf, got " + p);
    }
    return value;
  }

  private static String require(String value, String field) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(field + " is required");
    }
    return value;
  }
}
