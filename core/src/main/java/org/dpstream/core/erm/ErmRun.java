package org.dpstream.core.erm;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.dpstream.core.privacy.accounting.PrivacyBudget;

/**
 * The outcome of one {@link ErmAlgorithm#train} call. Immutable; arrays are copied out.
 */
public final class ErmRun {

  private final String algorithm;
  private final double[] finalWeights;
  private final List<double[]> passWeights;
  private final PrivacyBudget privacySpent;
  private final long updates;
  private final String description;

  ErmRun(String algorithm, double[] finalWeights, List<double[]> passWeights, PrivacyBudget privacySpent,
      long updates, String description) {
    this.algorithm = algorithm;
    this.finalWeights = finalWeights.clone();
    List<double[]> copies = new ArrayList<>(passWeights.size());
    for (double[] weights : passWeights) {
      copies.add(weights.clone());
    }
    this.passWeights = Collections.unmodifiableList(copies);
    this.privacySpent = privacySpent;
    this.updates = updates;
    this.description = description;
  }

  /** The algorithm's registered name. */
  public String algorithm() {
    return algorithm;
  }

  /** The released model w_priv. */
  public double[] finalWeights() {
    return finalWeights.clone();
  }

  /**
   * The model after each pass, as given to the {@link PassListener}: index 0 is w^0, index p the model
   * after pass p. Copies.
   */
  public List<double[]> passWeights() {
    List<double[]> copies = new ArrayList<>(passWeights.size());
    for (double[] weights : passWeights) {
      copies.add(weights.clone());
    }
    return copies;
  }

  /** Number of passes recorded (excluding w^0). */
  public int passes() {
    return passWeights.size() - 1;
  }

  /**
   * The (epsilon, delta) this run spends under the accountant named in {@link #describe()}, at most the
   * problem's budget; empty for a non-private run.
   */
  public Optional<PrivacyBudget> privacySpent() {
    return Optional.ofNullable(privacySpent);
  }

  /** Updates (coordinate / block / minibatch steps) performed. */
  public long updates() {
    return updates;
  }

  /** Algorithm, schedule, accountant and noise scales, e.g. for the bench's logs. */
  public String describe() {
    return description;
  }

  @Override
  public String toString() {
    return describe();
  }
}
