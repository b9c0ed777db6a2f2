package org.dpstream.core.online;

import java.io.DataOutput;
import java.io.IOException;
import java.util.Objects;
import org.dpstream.core.privacy.accounting.PrivacyLedger;

/**
 * An online estimator on samples scaled by declared per-feature bounds ({@link FeatureBoundScaling}): every
 * sample is clamped to its bounds and divided by them before the wrapped estimator steps on it, and the
 * parameters are reported in the samples' original units, w_j = theta'_j / b_j. The wrapped estimator keeps
 * all state, accounting and noise (the scaling has none); its state carries the spec's fingerprint, which
 * includes the bounds, so a state is never resumed under other bounds.
 *
 * <p>A sample outside its bounds is handled as the estimators handle a sample outside their declared data
 * bounds: clipped (here clamped per feature) and counted in {@link StepOutcome#sampleClipped}; only the
 * inputs the estimators refuse (wrong length, NaN or infinite entries, which the service's decoder rejects
 * first) throw.
 */
final class ScaledOnlineEstimator implements OnlineEstimator {

  private final OnlineEstimator scaled;
  private final FeatureBoundScaling scaling;

  ScaledOnlineEstimator(OnlineEstimator scaled, FeatureBoundScaling scaling) {
    this.scaled = Objects.requireNonNull(scaled, "scaled");
    this.scaling = Objects.requireNonNull(scaling, "scaling");
  }

  @Override
  public OnlineModelSpec spec() {
    return scaled.spec();
  }

  @Override
  public long steps() {
    return scaled.steps();
  }

  @Override
  public long epoch() {
    return scaled.epoch();
  }

  @Override
  public StepOutcome step(double[] features, double label) {
    double[] x = new double[features.length];
    boolean clamped = scaling.scale(features, x);
    StepOutcome outcome = scaled.step(x, label);
    return clamped && !outcome.sampleClipped()
        ? new StepOutcome(outcome.step(), outcome.epoch(), outcome.gradientClipped(), outcome.differenceClipped(), true,
            outcome.releasedClipRate())
        : outcome;
  }

  /** The latest parameters in the samples' original units, theta'_j / b_j. */
  @Override
  public double[] parameters() {
    return scaling.toOriginalUnits(scaled.parameters());
  }

  @Override
  public PrivacyLedger ledger() {
    return scaled.ledger();
  }

  /** The wrapped estimator's, ending with {@code /featureBounds(original units)}. */
  @Override
  public String mechanism() {
    return scaled.mechanism() + "/featureBounds(original units)";
  }

  @Override
  public void writeState(DataOutput out) throws IOException {
    scaled.writeState(out);
  }
}
