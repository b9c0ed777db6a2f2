package org.dpstream.app.topology;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.dpstream.app.config.ModelRegistry;
import org.dpstream.app.metrics.ModelMetrics;
import org.dpstream.core.online.OnlineEstimator;
import org.dpstream.core.online.OnlineEstimators;
import org.dpstream.core.online.StepOutcome;
import org.dpstream.core.privacy.accounting.PrivacyBudgetExceededException;
import org.dpstream.core.privacy.random.KeyedNoiseSource;

/**
 * Takes one private step per valid sample on the model's estimator and publishes the parameters every
 * k-th step.
 *
 * <p>State: each model's estimator state lives in a changelogged key-value store, written after every
 * step, so with exactly-once processing the store, the releases and the input offsets commit together.
 * Live estimators are cached in memory for speed; the cache is dropped whenever Streams (re)initialises
 * or closes the task, so after an aborted transaction or a rebalance every model is reloaded from the
 * store as the changelog left it. Noise is regenerated from the key, so a replayed sample produces the
 * release it produced before, bit for bit.
 */
final class LearnProcessor implements Processor<String, ValidatedSample, String, Object> {

  private final ModelRegistry models;
  private final KeyedNoiseSource noise;
  private final ModelMetrics metrics;
  private final Map<String, OnlineEstimator> live = new HashMap<>();
  private final ByteArrayOutputStream stateBuffer = new ByteArrayOutputStream();
  private ProcessorContext<String, Object> context;
  private KeyValueStore<String, byte[]> store;

  LearnProcessor(ModelRegistry models, KeyedNoiseSource noise, ModelMetrics metrics) {
    this.models = models;
    this.noise = noise;
    this.metrics = metrics;
  }

  @Override
  public void init(ProcessorContext<String, Object> context) {
    this.context = context;
    this.store = context.getStateStore(ContinualReleaseTopology.MODEL_STATE_STORE);
    live.clear();
  }

  @Override
  public void process(Record<String, ValidatedSample> record) {
    ValidatedSample sample = record.value();
    ModelRegistry.Entry entry = models.find(sample.modelId()).orElseThrow(
        () -> new IllegalStateException("validated sample of unconfigured model " + sample.modelId()));
    OnlineEstimator estimator = live.computeIfAbsent(sample.modelId(), id -> load(entry));
    long started = System.nanoTime();
    StepOutcome outcome;
    try {
      outcome = estimator.step(sample.features(), sample.label());
    } catch (PrivacyBudgetExceededException e) {
      metrics.rejected(sample.modelId(), SampleRejection.BUDGET_EXHAUSTED.name());
      context.forward(record.withValue(Rejections.of(context, SampleRejection.BUDGET_EXHAUSTED.name(),
          e.getMessage(), sample.originalKey(), sample.originalValue())), ContinualReleaseTopology.REJECTED_SINK);
      return;
    }
    store.put(sample.modelId(), serialize(estimator));
    metrics.stepped(sample.modelId(), outcome, System.nanoTime() - started, estimator.ledger());
    if (outcome.step() % entry.releaseEvery() == 0) {
      context.forward(record.withValue(Releases.of(estimator, outcome)), ContinualReleaseTopology.RELEASES_SINK);
    }
  }

  private OnlineEstimator load(ModelRegistry.Entry entry) {
    byte[] state = store.get(entry.spec().modelId());
    if (state == null) {
      return OnlineEstimators.start(entry.spec(), noise);
    }
    try {
      return OnlineEstimators.restore(entry.spec(), new DataInputStream(new ByteArrayInputStream(state)), noise);
    } catch (IOException e) {
      // A state this build cannot read (other version, other spec) must stop the model loudly: starting
      // over would silently reset the accounting of a model whose earlier releases are public.
      throw new IllegalStateException("cannot resume model " + entry.spec().modelId() + ": " + e.getMessage(), e);
    }
  }

  private byte[] serialize(OnlineEstimator estimator) {
    stateBuffer.reset();
    try {
      estimator.writeState(new DataOutputStream(stateBuffer));
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory cannot fail", e);
    }
    return stateBuffer.toByteArray();
  }

  @Override
  public void close() {
    live.clear();
  }
}
