package org.dpstream.core.erm;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.PrivacyLedger;

/**
 * The outcome of one {@link ErmAlgorithm#train} call: the model and, for a private run, the {@link
 * PrivacyLedger} in which the run reserved its whole cost before it drew any noise. Immutable; arrays are
 * copied out.
 */
public final class ErmRun {

  private final String algorithm;
  private final double[] finalWeights;
  private final List<double[]> passWeights;
  private final PrivacyLedger ledger;
  private final long updates;
  private final String description;

  ErmRun(String algorithm, double[] finalWeights, List<double[]> passWeights, PrivacyLedger ledger,
      long updates, String description) {
    this.algorithm = algorithm;
    this.finalWeights = finalWeights.clone();
    List<double[]> copies = new ArrayList<>(passWeights.size());
    for (double[] weights : passWeights) {
      copies.add(weights.clone());
    }
    this.passWeights = Collections.unmodifiableList(copies);
    this.ledger = ledger;
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
    return ledger().map(l -> new PrivacyBudget(l.spentEpsilon(), l.spentDelta()));
  }

  /**
   * The run's ledger: its budget, accountant, horizon (the number of noisy steps) and what the run spends,
   * reserved before anything was released; empty for a non-private run.
   */
  public Optional<PrivacyLedger> ledger() {
    return Optional.ofNullable(ledger);
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
