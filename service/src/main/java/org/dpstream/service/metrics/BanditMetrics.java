package org.dpstream.service.metrics;

import org.dpstream.bandit.Decision;
import org.dpstream.bandit.hdb.JointPrivacyLoss;

/** What the bandit topology reports per bandit; implemented on Micrometer for Prometheus. */
public interface BanditMetrics {

  /**
   * A decision was made and sent.
   *
   * @param latencyNanos from the context record's timestamp to the decision (wall clock; 0 if negative)
   */
  void decided(String banditId, Decision decision, long latencyNanos);

  /** A reward was joined and one round learnt. */
  void joined(String banditId, double reward, long rounds, JointPrivacyLoss spent);

  /** A decision's reward did not come in time; {@code imputed}: a round was learnt with the default reward. */
  void expired(String banditId, boolean imputed, long rounds, JointPrivacyLoss spent);

  /** An input was rejected; {@code banditId} is null when the bandit is unknown or missing. */
  void rejected(String banditId, String reason);

  /**
   * A reward came before its decision and is held until the decision comes (then it is joined) or until the
   * reward timeout (then it is rejected as UNKNOWN_REQUEST).
   */
  default void rewardHeld(String banditId) {}

  /**
   * Processing a record of this bandit threw; the record went to dp.rejected as PROCESSING_ERROR.
   * {@code banditId} is null when the key names no configured bandit.
   */
  default void processingError(String banditId) {}

  BanditMetrics NONE = new BanditMetrics() {
    @Override
    public void decided(String banditId, Decision decision, long latencyNanos) {}

    @Override
    public void joined(String banditId, double reward, long rounds, JointPrivacyLoss spent) {}

    @Override
    public void expired(String banditId, boolean imputed, long rounds, JointPrivacyLoss spent) {}

    @Override
    public void rejected(String banditId, String reason) {}
  };
}
