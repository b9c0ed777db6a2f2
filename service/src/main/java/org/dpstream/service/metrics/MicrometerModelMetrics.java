package org.dpstream.service.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.dpstream.core.online.StepOutcome;
import org.dpstream.core.privacy.accounting.PrivacyLedger;

/**
 * Per-model metrics on Micrometer: samples processed, clipped (gradient or difference term), rejected
 * by reason, step latency, epsilon spent and current epoch.
 *
 * <p>Only counts and public ledger values are exported; the clipped count is a count over a model's
 * stream, which the metrics endpoint must guard like the input (ARCHITECTURE.md 4.6) if models are
 * small enough that a count says something about an individual.
 */
public final class MicrometerModelMetrics implements ModelMetrics {

  /** The step-latency histogram's bucket range. */
  static final Duration STEP_LATENCY_MIN = Duration.ofNanos(100);
  static final Duration STEP_LATENCY_MAX = Duration.ofMillis(10);


  /** Tag value for rejections whose key names no configured model. */
  public static final String UNKNOWN_MODEL = "_unknown";

  private final MeterRegistry registry;
  private final Map<String, PerModel> models = new ConcurrentHashMap<>();

  public MicrometerModelMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  private final class PerModel {
    final Counter samples;
    final Counter clipped;
    final Timer stepLatency;
    final AtomicLong epsilonSpentMicros = new AtomicLong();
    final AtomicLong epsilonBudgetMicros = new AtomicLong();
    final AtomicLong epoch = new AtomicLong();
    final AtomicLong steps = new AtomicLong();

    PerModel(String model) {
      samples = Counter.builder("dpstream.samples.processed").tag("model", model)
          .description("samples that took a private step").register(registry);
      clipped = Counter.builder("dpstream.samples.clipped").tag("model", model)
          .description("samples clipped to their declared data bounds or whose gradient or difference term was clipped").register(registry);
      // A step takes about a microsecond: buckets from 100 ns to 10 ms resolve it (Micrometer's default
      // timer range starts at 1 ms, where every step would fall in the lowest bucket).
      stepLatency = Timer.builder("dpstream.step.latency").tag("model", model)
          .description("time of one private step").publishPercentileHistogram()
          .minimumExpectedValue(STEP_LATENCY_MIN).maximumExpectedValue(STEP_LATENCY_MAX).register(registry);
      Gauge.builder("dpstream.epsilon.budget", epsilonBudgetMicros, v -> v.get() / 1e6).tag("model", model)
          .description("the model's epsilon: spent / budget is how close it is to refusing samples").register(registry);
      Gauge.builder("dpstream.epsilon.spent", epsilonSpentMicros, v -> v.get() / 1e6).tag("model", model)
          .description("privacy loss of the releases so far w.r.t. one sample").register(registry);
      Gauge.builder("dpstream.tree.epoch", epoch, AtomicLong::get).tag("model", model)
          .description("current tree epoch").register(registry);
      Gauge.builder("dpstream.model.step", steps, AtomicLong::get).tag("model", model)
          .description("samples consumed so far").register(registry);
    }
  }

  private PerModel model(String modelId) {
    return models.computeIfAbsent(modelId, PerModel::new);
  }

  @Override
  public void stepped(String modelId, StepOutcome outcome, long nanos, PrivacyLedger ledger) {
    PerModel m = model(modelId);
    m.samples.increment();
    if (outcome.clipped()) {
      m.clipped.increment();
    }
    m.stepLatency.record(nanos, TimeUnit.NANOSECONDS);
    // Rounded up to the micro-epsilon, so the metric never understates what was spent.
    m.epsilonSpentMicros.set((long) Math.ceil(ledger.spentEpsilon() * 1e6));
    m.epsilonBudgetMicros.set((long) Math.floor(ledger.budget().epsilon() * 1e6));
    m.epoch.set(outcome.epoch());
    m.steps.set(outcome.step());
  }

  @Override
  public void rejected(String modelId, String reason) {
    Counter.builder("dpstream.samples.rejected")
        .tag("model", modelId == null ? UNKNOWN_MODEL : modelId)
        .tag("reason", reason)
        .description("inputs sent to the rejected topic")
        .register(registry)
        .increment();
  }

  @Override
  public void processingError(String modelId) {
    ProcessingErrors.count(registry, modelId);
  }
}
