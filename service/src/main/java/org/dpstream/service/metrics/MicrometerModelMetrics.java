package org.dpstream.service.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.dpstream.core.online.StepOutcome;
import org.dpstream.core.privacy.accounting.PrivacyLedger;

/**
 * The models' metrics on Micrometer. Per instance, whatever the number of models: samples processed and rejected,
 * models by status, histograms over models of the budget spent and of the released clipping rate (public); samples
 * clipped, rejections by reason and the step-latency histogram (raw: exported only with {@code metrics.raw: true},
 * {@link PublicSeriesFilter}). Per model, only for the models {@code withSeries} accepts: step, epoch, epsilon spent
 * and budget, released clipping rate (public). docs/operations.md classifies each.
 */
public final class MicrometerModelMetrics implements ModelMetrics {

  /** The step-latency histogram's bucket range. */
  static final Duration STEP_LATENCY_MIN = Duration.ofNanos(100);
  static final Duration STEP_LATENCY_MAX = Duration.ofMillis(10);

  /** The reason of a step the ledger refused (topology.SampleRejection.BUDGET_EXHAUSTED). */
  public static final String BUDGET_EXHAUSTED = "BUDGET_EXHAUSTED";

  /** Tag value for rejections whose key names no configured model. */
  public static final String UNKNOWN_MODEL = "_unknown";

  private final MeterRegistry registry;
  private final Predicate<String> withSeries;
  private final ModelsOnInstance models;
  private final Counter processed;
  private final Counter rejected;
  private final Counter clipped;
  private final Timer stepLatency;
  private final Map<String, Counter> rejectedByReason = new ConcurrentHashMap<>();
  private final Map<String, List<Meter>> perModel = new ConcurrentHashMap<>();

  /** Metrics with per-model series for every model (tests and tools with few models). */
  public MicrometerModelMetrics(MeterRegistry registry) {
    this(registry, modelId -> true);
  }

  /** Metrics with per-model series for the models {@code withSeries} accepts only. */
  public MicrometerModelMetrics(MeterRegistry registry, Predicate<String> withSeries) {
    this.registry = registry;
    this.withSeries = withSeries;
    this.models = new ModelsOnInstance(registry);
    processed = Counter.builder("dpstream.samples.processed")
        .description("samples that took a private step on this instance").register(registry);
    rejected = Counter.builder("dpstream.samples.rejected")
        .description("inputs sent to the rejected topic, all reasons together").register(registry);
    clipped = Counter.builder("dpstream.samples.clipped")
        .description("samples clipped to their declared data bounds or whose increment was clipped (raw data)")
        .register(registry);
    // A step takes about a microsecond: buckets from 100 ns to 10 ms resolve it (Micrometer's default
    // timer range starts at 1 ms, where every step would fall in the lowest bucket).
    stepLatency = Timer.builder("dpstream.step.latency")
        .description("time of one private step, over the models of this instance (raw data)")
        .publishPercentileHistogram()
        .minimumExpectedValue(STEP_LATENCY_MIN).maximumExpectedValue(STEP_LATENCY_MAX).register(registry);
  }

  @Override
  public void stepped(String modelId, StepOutcome outcome, long nanos, PrivacyLedger ledger) {
    processed.increment();
    if (outcome.clipped()) {
      clipped.increment();
    }
    stepLatency.record(nanos, TimeUnit.NANOSECONDS);
    ModelsOnInstance.Model model = model(modelId);
    model.step = outcome.step();
    model.epoch = outcome.epoch();
    // Rounded up to the micro-epsilon, so the metric never understates what was spent.
    model.epsilonSpent = Math.ceil(ledger.spentEpsilon() * 1e6) / 1e6;
    model.epsilonBudget = Math.floor(ledger.budget().epsilon() * 1e6) / 1e6;
    if (!Double.isNaN(outcome.releasedClipRate())) {
      boolean first = Double.isNaN(model.clipRate);
      model.clipRate = outcome.releasedClipRate();
      if (first && withSeries.test(modelId)) {
        perModel.get(modelId).add(Gauge.builder("dpstream.model.clip.rate", model, m -> m.clipRate)
            .tag("model", modelId)
            .description("noisy share of the last finished block's increments above its threshold, from the"
                + " released norm histogram of adaptive clipping")
            .register(registry));
      }
    }
  }

  @Override
  public void rejected(String modelId, String reason) {
    rejected.increment();
    rejectedByReason.computeIfAbsent(reason, r -> Counter.builder("dpstream.samples.rejected.by.reason")
        .tag("reason", r).description("inputs sent to the rejected topic, by reason (raw data)").register(registry))
        .increment();
    if (BUDGET_EXHAUSTED.equals(reason) && modelId != null) {
      model(modelId).budgetExhausted = true;
    }
  }

  @Override
  public void processingError(String modelId) {
    ProcessingErrors.count(registry, modelId);
  }

  @Override
  public void closed(Collection<String> modelIds) {
    for (String modelId : modelIds) {
      models.forget(modelId);
      List<Meter> meters = perModel.remove(modelId);
      if (meters != null) {
        meters.forEach(registry::remove);
      }
    }
  }

  private ModelsOnInstance.Model model(String modelId) {
    ModelsOnInstance.Model model = models.model(modelId);
    if (withSeries.test(modelId)) {
      perModel.computeIfAbsent(modelId, id -> register(id, model));
    }
    return model;
  }

  private List<Meter> register(String modelId, ModelsOnInstance.Model model) {
    List<Meter> meters = new ArrayList<>();
    meters.add(Gauge.builder("dpstream.epsilon.budget", model, m -> m.epsilonBudget).tag("model", modelId)
        .description("the model's epsilon: spent / budget is how close it is to refusing samples").register(registry));
    meters.add(Gauge.builder("dpstream.epsilon.spent", model, m -> m.epsilonSpent).tag("model", modelId)
        .description("privacy loss of the releases so far w.r.t. one sample, or one person (all of its samples) under"
            + " privacyUnit by user, as the release's ledger states").register(registry));
    meters.add(Gauge.builder("dpstream.tree.epoch", model, m -> m.epoch).tag("model", modelId)
        .description("current tree epoch").register(registry));
    meters.add(Gauge.builder("dpstream.model.step", model, m -> m.step).tag("model", modelId)
        .description("samples consumed so far").register(registry));
    return Collections.synchronizedList(meters);
  }
}
