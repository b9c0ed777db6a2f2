package org.dpstream.service.metrics;

import java.util.Collection;
import org.dpstream.core.online.StepOutcome;
import org.dpstream.core.privacy.accounting.PrivacyLedger;

/** What the continual-release topology reports per model; implemented on Micrometer for Prometheus. */
public interface ModelMetrics {

  /** One private step was taken (and possibly released). */
  void stepped(String modelId, StepOutcome outcome, long nanos, PrivacyLedger ledger);

  /** An input was rejected; {@code modelId} is null when the model is unknown or missing. */
  void rejected(String modelId, String reason);

  /** Processing a record of this model threw; the record went to dp.rejected as PROCESSING_ERROR. */
  default void processingError(String modelId) {}

  /**
   * This instance no longer runs these models (their task closed, e.g. moved to another instance): their series
   * go, so that each model is reported by the one instance that runs it.
   */
  default void closed(Collection<String> modelIds) {}

  /** Metrics that record nothing, for tools and tests that do not look at them. */
  ModelMetrics NONE = new ModelMetrics() {
    @Override
    public void stepped(String modelId, StepOutcome outcome, long nanos, PrivacyLedger ledger) {}

    @Override
    public void rejected(String modelId, String reason) {}
  };
}
