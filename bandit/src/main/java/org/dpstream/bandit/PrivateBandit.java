package org.dpstream.bandit;

import java.io.DataOutput;
import java.io.IOException;
import org.dpstream.bandit.hdb.JointPrivacyLoss;

/** A bandit policy that learns privately: it accounts its joint privacy loss and persists its state. */
public interface PrivateBandit extends BanditPolicy {

  /** The joint privacy loss of everything released so far with respect to one user. */
  JointPrivacyLoss privacySpent();

  /** Writes the state from which the policy resumes bit-identically (raw data: the input's access control). */
  void writeState(DataOutput out) throws IOException;

  /**
   * Checks a context: the dimension and finite values.
   *
   * @throws IllegalArgumentException naming the bandit, on a wrong dimension or a non-finite value
   */
  static void requireContext(double[] context, int dimension, String banditId) {
    java.util.Objects.requireNonNull(context, "context");
    if (context.length != dimension) {
      throw new IllegalArgumentException(
          "bandit " + banditId + " has dimension " + dimension + ", the context " + context.length);
    }
    for (int j = 0; j < context.length; j++) {
      if (!Double.isFinite(context[j])) {
        throw new IllegalArgumentException("context[" + j + "] is not finite: " + context[j]);
      }
    }
  }
}
