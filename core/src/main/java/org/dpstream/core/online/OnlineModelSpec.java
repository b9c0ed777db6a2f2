package org.dpstream.core.online;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Objects;
import org.dpstream.core.geometry.LpBall;
import org.dpstream.core.loss.DataBounds;
import org.dpstream.core.loss.SampleLoss;
import org.dpstream.core.privacy.accounting.PrivacyBudget;

/**
 * Everything that defines one private online model. All of it is public configuration: the clip
 * bounds and data bounds are declared, never measured on the private data.
 *
 * @param modelId the stream id of the model's noise; two models must not share it
 * @param dimension d
 * @param loss per-sample loss
 * @param domain the constraint set, an lp ball; p = 1 selects DP-POFW, p > 1 DP-TOFW
 * @param budget (epsilon, delta) of the whole release sequence w.r.t. one sample
 * @param horizon n, the capacity of one tree (or one composition epoch for DP-POFW)
 * @param clipBounds L and beta D every contribution is clipped to
 * @param accountant the node-noise calibration of DP-TOFW (ignored by DP-POFW)
 * @param data the declared bounds X on ||x||_q and Y on |y|; every sample is clipped to them before
 *     any loss or gradient sees it ({@link SampleClipper}), so any finite input is computable
 * @param incrementClipping how DP-TOFW bounds one increment (ignored by DP-POFW)
 * @param learningRate lr of DP-TOFW's step size eta_t = min(1, lr / (t + 1)); 1 is the paper's. Public
 *     configuration: tuning it on the private stream spends privacy
 * @param noise how the noise is sampled: DP-TOFW's Gaussian node noise, DP-POFW's vertex choice (p = 1:
 *     {@link NoiseChoice#DISCRETE} is the exact exponential mechanism on lattice scores); DISCRETE needs the
 *     zcdp or auto accountant (or blt for p &gt; 1: the exact BLT)
 * @param featureScaling null, or declared per-feature bounds every sample is clamped to and divided by
 *     before the estimator ({@link FeatureBoundScaling}): the estimator, {@code domain}, {@code data} and the
 *     clip bounds are then in those scaled units (features in [-1, 1]), and {@link OnlineEstimator#parameters}
 *     is in the original units ({@link ScaledOnlineEstimator})
 * @param participations k, the most samples one person contributes over the model's life (bounded before the
 *     estimator, by the service); 1 is event level. Every mechanism is calibrated for k participations of one
 *     person (docs/privacy-layer.md, "Person-level privacy"); the paper's (epsilon, delta) accountant is event
 *     level only
 */
public record OnlineModelSpec(
    String modelId,
    int dimension,
    SampleLoss loss,
    LpBall domain,
    PrivacyBudget budget,
    long horizon,
    ClipBounds clipBounds,
    AccountantChoice accountant,
    DataBounds data,
    IncrementClipping incrementClipping,
    double learningRate,
    NoiseChoice noise,
    FeatureBoundScaling featureScaling,
    int participations) {

  public OnlineModelSpec {
    if (participations < 1) {
      throw new IllegalArgumentException("participations (maxContributions) must be at least 1, got " + participations);
    }
    if (participations > 1 && accountant == AccountantChoice.PAPER) {
      throw new IllegalArgumentException("privacyUnit by user is accounted in zCDP: use accountant zcdp, auto,"
          + " factorization or blt, not paper (its (epsilon, delta) calibration is event level only)");
    }
    Objects.requireNonNull(modelId, "modelId");
    Objects.requireNonNull(loss, "loss");
    Objects.requireNonNull(domain, "domain");
    Objects.requireNonNull(budget, "budget");
    Objects.requireNonNull(clipBounds, "clipBounds");
    Objects.requireNonNull(accountant, "accountant");
    Objects.requireNonNull(data, "data");
    Objects.requireNonNull(incrementClipping, "incrementClipping");
    if (!(learningRate > 0 && learningRate <= Double.MAX_VALUE)) {
      throw new IllegalArgumentException("learningRate must be finite and > 0, got " + learningRate);
    }
    Objects.requireNonNull(noise, "noise");
    if (featureScaling != null) {
      if (featureScaling.dimension() != dimension) {
        throw new IllegalArgumentException("featureBounds: " + featureScaling.dimension()
            + " bounds for a model of dimension " + dimension);
      }
      if (!Double.isFinite(domain.radius() / featureScaling.smallestBound())) {
        throw new IllegalArgumentException("featureBounds: a parameter of the radius " + domain.radius()
            + " divided by the bound " + featureScaling.smallestBound() + " is not finite in original units");
      }
    }
    if (modelId.isBlank()) {
      throw new IllegalArgumentException("modelId must not be blank");
    }
    if (dimension <= 0) {
      throw new IllegalArgumentException("dimension must be positive: " + dimension);
    }
    if (horizon < 2) {
      throw new IllegalArgumentException("horizon must be at least 2: " + horizon);
    }
    if (noise == NoiseChoice.DISCRETE) {
      if (accountant == AccountantChoice.PAPER || accountant == AccountantChoice.FACTORIZATION
          || (accountant == AccountantChoice.BLT && domain.exponent() == 1)) {
        throw new IllegalArgumentException("noise: discrete needs accountant zcdp or auto (or blt for p > 1), got "
            + accountant.name().toLowerCase(java.util.Locale.ROOT)
            + " (the paper's accountant prices continuous noise (at p = 1 its Laplace report-noisy-min);"
            + " the square-root factorization's noise has real coefficients)");
      }
    }
  }

  /** An event-level spec (one participation per person). */
  public OnlineModelSpec(String modelId, int dimension, SampleLoss loss, LpBall domain, PrivacyBudget budget,
      long horizon, ClipBounds clipBounds, AccountantChoice accountant, DataBounds data,
      IncrementClipping incrementClipping, double learningRate, NoiseChoice noise, FeatureBoundScaling featureScaling) {
    this(modelId, dimension, loss, domain, budget, horizon, clipBounds, accountant, data, incrementClipping,
        learningRate, noise, featureScaling, 1);
  }

  /** This spec accounted for up to {@code k} participations of one person (1: event level). */
  public OnlineModelSpec withParticipations(int k) {
    return new OnlineModelSpec(modelId, dimension, loss, domain, budget, horizon, clipBounds, accountant, data,
        incrementClipping, learningRate, noise, featureScaling, k);
  }

  /** A spec whose samples are used in their own units (no {@code featureBounds}). */
  public OnlineModelSpec(String modelId, int dimension, SampleLoss loss, LpBall domain, PrivacyBudget budget,
      long horizon, ClipBounds clipBounds, AccountantChoice accountant, DataBounds data,
      IncrementClipping incrementClipping, double learningRate, NoiseChoice noise) {
    this(modelId, dimension, loss, domain, budget, horizon, clipBounds, accountant, data, incrementClipping,
        learningRate, noise, null);
  }

  /** This spec with samples scaled by declared per-feature bounds (null: none). */
  public OnlineModelSpec withFeatureScaling(FeatureBoundScaling scaling) {
    return new OnlineModelSpec(modelId, dimension, loss, domain, budget, horizon, clipBounds, accountant, data,
        incrementClipping, learningRate, noise, scaling, participations);
  }

  /** This spec with node noise sampled as {@code choice}. */
  public OnlineModelSpec withNoise(NoiseChoice choice) {
    return new OnlineModelSpec(modelId, dimension, loss, domain, budget, horizon, clipBounds, accountant, data,
        incrementClipping, learningRate, choice, featureScaling, participations);
  }

  /** The paper's configuration: worst-case clipping, step size 1 / (t + 1), continuous node noise. */
  public OnlineModelSpec(String modelId, int dimension, SampleLoss loss, LpBall domain, PrivacyBudget budget,
      long horizon, ClipBounds clipBounds, AccountantChoice accountant, DataBounds data) {
    this(modelId, dimension, loss, domain, budget, horizon, clipBounds, accountant, data, IncrementClipping.WORST_CASE,
        1, NoiseChoice.CONTINUOUS);
  }

  /** The same spec with another increment clipping. */
  public OnlineModelSpec withIncrementClipping(IncrementClipping clipping) {
    return new OnlineModelSpec(modelId, dimension, loss, domain, budget, horizon, clipBounds, accountant, data,
        clipping, learningRate, noise, featureScaling, participations);
  }

  /** The same spec with another learning rate. */
  public OnlineModelSpec withLearningRate(double rate) {
    return new OnlineModelSpec(modelId, dimension, loss, domain, budget, horizon, clipBounds, accountant, data,
        incrementClipping, rate, noise, featureScaling, participations);
  }

  /** A spec whose clip bounds are derived from the loss over the domain for the declared data bounds. */
  public static OnlineModelSpec withDerivedClipping(
      String modelId, int dimension, SampleLoss loss, LpBall domain, PrivacyBudget budget, long horizon,
      DataBounds data, AccountantChoice accountant) {
    return new OnlineModelSpec(
        modelId, dimension, loss, domain, budget, horizon, ClipBounds.derived(loss, domain, data), accountant, data);
  }

  /** p of the domain. */
  public double p() {
    return domain.exponent();
  }

  /**
   * A digest of every field that shapes the released sequence. Saved state carries it, so state
   * written under one spec is never resumed under another (a changed epsilon or dimension would
   * otherwise silently mix two accountings).
   */
  public byte[] fingerprint() {
    String canonical = String.join("|",
        "v2", modelId, Integer.toString(dimension), loss.toString(), domain.toString(),
        Double.toString(budget.epsilon()), Double.toString(budget.delta()), Long.toString(horizon),
        Double.toString(clipBounds.gradient()), Double.toString(clipBounds.difference()), accountant.name(),
        Double.toString(data.featureDualNorm()), Double.toString(data.labelBound()),
        incrementClipping.mode().name(), Double.toString(incrementClipping.threshold()), Double.toString(learningRate),
        noise.fingerprintToken());
    if (incrementClipping.isAdaptive()) {
      // Appended only when adaptive, so the fingerprints of the other modes (and their saved states) are unchanged.
      canonical += "|adaptive|" + incrementClipping.quantile() + "|" + incrementClipping.quantileShare();
    }
    if (featureScaling != null) {
      // Likewise appended only when declared: a state learnt under other bounds (other units) is refused.
      canonical += "|featureBounds|" + featureScaling.fingerprintToken();
    }
    if (participations > 1) {
      // Likewise: a state accounted for another number of participations is refused.
      canonical += "|participations|" + participations;
    }
    try {
      return MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }
}
