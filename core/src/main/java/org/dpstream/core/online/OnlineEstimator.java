package org.dpstream.core.online;

import java.io.DataOutput;
import java.io.IOException;
import org.dpstream.core.privacy.accounting.PrivacyLedger;

/**
 * A private online learner: one step per sample, and every step releases new parameters.
 *
 * <p>Contract: the sequence of everything released by {@link #step} (parameters, and the outcome's
 * public fields) is (epsilon, delta)-DP with respect to any one sample, for any input, with the
 * accounting in {@link #ledger()}; the step checks the budget before it releases and changes nothing
 * when it refuses or fails. Given the same key, spec and samples, two instances release bit-identical
 * parameters, also when one was restored from {@link #writeState} midway.
 *
 * <p>Not thread-safe: one instance per stream thread and model.
 */
public interface OnlineEstimator {

  OnlineModelSpec spec();

  /** Samples consumed, over all epochs. */
  long steps();

  /** Tree epoch (or composition epoch) of the latest step. */
  long epoch();

  /**
   * Takes one private step on one sample. A sample outside the spec's declared data bounds is clipped
   * to them first ({@link SampleClipper}), so every finite sample of the right length is processed.
   *
   * @throws IllegalArgumentException if the features have the wrong length or a value is not finite
   * @throws org.dpstream.core.privacy.accounting.PrivacyBudgetExceededException if the release would
   *     exceed the budget; nothing changes
   */
  StepOutcome step(double[] features, double label);

  /** The latest released parameters (a copy); zero before the first step. */
  double[] parameters();

  /** The accounting of everything released so far. */
  PrivacyLedger ledger();

  /** Algorithm and noise as released, e.g. {@code dp-tofw/zcdp-cks20/gaussian(d=5, sigma=12.7)}. */
  String mechanism();

  /**
   * Writes the state with a leading version byte. It holds raw data (exact sums, parameters): store it
   * with the access control of the input. It never holds key material or noise.
   */
  void writeState(DataOutput out) throws IOException;
}
