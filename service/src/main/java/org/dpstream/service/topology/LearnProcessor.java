package org.dpstream.service.topology;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.dpstream.core.online.EstimatorFactory;
import org.dpstream.core.online.OnlineEstimator;
import org.dpstream.core.online.StepOutcome;
import org.dpstream.core.privacy.accounting.PrivacyBudgetExceededException;
import org.dpstream.core.privacy.random.NoiseKeyRing;
import org.dpstream.service.config.ModelRegistry;
import org.dpstream.service.contribution.ContributionCounts;
import org.dpstream.service.metrics.ModelMetrics;
import org.dpstream.service.noise.NoiseContext;
import org.dpstream.service.noise.PlacedStateStore;
import org.dpstream.service.noise.RefusedStateException;
import org.dpstream.service.noise.RefusedStates;
import org.dpstream.service.noise.StateRefusal;
import org.dpstream.service.release.ModelReleases;
import org.dpstream.service.release.NoiseGeneration;
import org.dpstream.service.routing.Placement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes one private step per valid sample on the model's estimator and publishes the parameters every
 * k-th step.
 *
 * <p>State: each model's estimator state lives in a changelogged key-value store, written after every
 * step, so with exactly-once processing the store, the releases and the input offsets commit together.
 * Live estimators are cached in memory for speed, at most {@code liveModels} per task, the least recently stepped
 * dropped first, and none that has not stepped for {@link #IDLE} ({@link LiveModels}: a model at rest costs no
 * estimator on the heap); the cache is dropped whenever Streams (re)initialises or closes the task, so after an aborted transaction or a rebalance every model is reloaded from the
 * store as the changelog left it. Noise is regenerated from the key, so a replayed sample produces the
 * release it produced before, bit for bit.
 *
 * <p>A record whose processing throws goes to dp.rejected as {@code PROCESSING_ERROR} and the model's
 * live estimator is dropped ({@link ProcessingErrorGuard}); the next record of the model reloads it.
 *
 * <p>A model whose state is refused ({@link StateRefusal}: another noise key or law, a lost state, a state behind
 * its releases) is stopped loudly: every record of it goes to dp.rejected with the code, the store keeps the state,
 * /ready names it ({@link RefusedStates}) and one line is logged; nothing is released for it.
 */
final class LearnProcessor implements Processor<String, ValidatedSample, String, Object> {

  private static final Logger LOG = LoggerFactory.getLogger(LearnProcessor.class);

  private final ModelRegistry models;
  private final int routingPartitions;
  private final NoiseContext noise;
  private final ModelMetrics metrics;
  private final EstimatorFactory estimators;
  /** A model that has not stepped for this long (wall-clock) leaves the heap; its next sample reloads it. */
  static final java.time.Duration IDLE = java.time.Duration.ofMinutes(1);
  /** How often the task looks for idle models: a model at rest leaves the heap within IDLE and this. */
  private static final java.time.Duration IDLE_CHECK = java.time.Duration.ofSeconds(10);

  private final LiveModels<Live> live;
  private final PlacedStateStore states;
  /** The models this task has reported to the metrics, which forget them when the task closes. */
  private final Set<String> reported = new HashSet<>();
  private ProcessorContext<String, Object> context;
  private KeyValueStore<String, byte[]> store;
  private ContributionCounts counts;

  /** A loaded model: its estimator and the generation it releases in. */
  private record Live(OnlineEstimator estimator, NoiseGeneration generation) {}

  LearnProcessor(ModelRegistry models, int routingPartitions, NoiseContext noise, ModelMetrics metrics,
      EstimatorFactory estimators, int liveModels) {
    this.live = new LiveModels<>(liveModels);
    this.models = models;
    this.routingPartitions = routingPartitions;
    this.noise = noise;
    this.metrics = metrics;
    this.estimators = estimators;
    this.states = new PlacedStateStore(noise, "model", routingPartitions);
  }

  @Override
  public void init(ProcessorContext<String, Object> context) {
    this.context = context;
    this.store = context.getStateStore(ContinualReleaseTopology.MODEL_STATE_STORE);
    this.counts = new ContributionCounts(store, noise.keys());
    live.clear();
    // Only the cache changes: the outputs are those of a task that kept every model loaded.
    context.schedule(IDLE_CHECK, org.apache.kafka.streams.processor.PunctuationType.WALL_CLOCK_TIME,
        now -> live.dropUnusedSince(now - IDLE.toMillis()));
    states.start(store);
  }

  @Override
  public void process(Record<String, ValidatedSample> record) {
    String modelId = record.value().modelId();
    ProcessingErrorGuard.run(() -> learn(record), message -> {
      // The step that threw may have half-mutated the live estimator (iterates, prefix sums, ledger), so
      // it is dropped and the next sample reloads the model from the store. That is consistent and
      // private: the store is written only after a step succeeded, and the release only after that
      // write, so a failed step published nothing. The next sample then takes the same step index with
      // the same noise coordinates (model, epoch, node), whose noise was never released: no noise is
      // ever published for two different data. (If only the forward of the release failed, the stored
      // state holds the step and the next release covers it; nothing is published twice either.)
      live.remove(modelId);
      metrics.processingError(modelId);
      LOG.warn("model {}: a record at {} was rejected: {}", modelId, position(), message);
      reject(record, SampleRejection.PROCESSING_ERROR, message);
    });
  }

  private void learn(Record<String, ValidatedSample> record) {
    ValidatedSample sample = record.value();
    ModelRegistry.Entry entry = models.find(sample.modelId()).orElseThrow(
        () -> new IllegalStateException("validated sample of unconfigured model " + sample.modelId()));
    // A model is stepped only in its home partition: it is the one task that can hold its state, so a
    // second state cannot start whatever reached the routing topic (docs/privacy-layer.md, one state per model).
    Placement home = Placement.of(sample.modelId(), routingPartitions);
    int here = context.taskId().partition();
    if (home.partition() != here) {
      reject(record, SampleRejection.MISPLACED_SAMPLE, "model " + sample.modelId() + " lives in " + home
          + "; this sample arrived in routing partition " + here + ", which dpstream's routing never writes it to");
      return;
    }
    Live model = states.admit(sample.modelId(),
        () -> live.use(sample.modelId(), id -> {
          // Its home: the metrics hear of it from this task. Noted when the task loads it (every model that steps or
          // is refused here was loaded here first), not at every sample, which would hash its id once more.
          reported.add(id);
          return load(entry, home);
        }, context.currentSystemTimeMs()),
        (reason, message) -> reject(record, reason, message));
    if (model == null) {
      return;
    }
    ContributionCounts.Contributor contributor = null;
    if (entry.unit().byUser()) {
      // Bounded before any mechanism sees the sample: the (k+1)-th never reaches the estimator.
      try {
        contributor = counts.find(sample.modelId(), sample.personId());
      } catch (RefusedStateException e) {
        states.refuse(sample.modelId(), e);
        reject(record, e.reason().name(), e.getMessage());
        return;
      }
      if (contributor.count() >= entry.unit().maxContributions()) {
        reject(record, SampleRejection.CONTRIBUTION_LIMIT, "the sample's person has contributed the "
            + entry.unit().maxContributions() + " samples model " + sample.modelId() + " takes per person");
        return;
      }
    }
    OnlineEstimator estimator = model.estimator();
    long started = System.nanoTime();
    StepOutcome outcome;
    try {
      outcome = estimator.step(sample.features(), sample.label());
    } catch (PrivacyBudgetExceededException e) {
      reject(record, SampleRejection.BUDGET_EXHAUSTED, e.getMessage());
      return;
    }
    if (contributor != null) {
      counts.add(contributor); // same store, same transaction as the state: a replay counts it as often as it learns it
    }
    states.write(sample.modelId(), home, model.generation(), estimator::writeState);
    metrics.stepped(sample.modelId(), outcome, System.nanoTime() - started, estimator.ledger());
    if (outcome.step() % entry.releaseEvery() == 0) {
      // Without the sample's headers (the producer's, a person's id among them, and routing's: where the sample
      // was read) and stamped with the service's clock, not the sample's timestamp (the producer's to set, an event
      // time): both are raw data that a public release must not carry.
      context.forward(record.withValue((Object) ModelReleases.inUnit(
          ModelReleases.inGeneration(Releases.of(estimator, outcome), model.generation()), entry.unit()))
          .withHeaders(new RecordHeaders())
          .withTimestamp(context.currentSystemTimeMs()));
    }
  }

  /** The one place a rejection of this processor is counted and forwarded. */
  private void reject(Record<String, ValidatedSample> record, SampleRejection reason, String message) {
    reject(record, reason.name(), message);
  }

  private void reject(Record<String, ValidatedSample> record, String reason, String message) {
    ValidatedSample sample = record.value();
    metrics.rejected(sample.modelId(), reason);
    context.forward(record.withValue(Rejections.of(context, record.headers(), reason, message,
        sample.originalKey(), sample.originalValue())));
  }

  private String position() {
    return context.recordMetadata().map(m -> m.topic() + "-" + m.partition() + "@" + m.offset()).orElse("?");
  }

  /**
   * The model's state in this task, or a new one if it has none and may start one ({@link PlacedStateStore#load}).
   *
   * @throws RefusedStateException if the state (or its absence) must stop the model
   */
  private Live load(ModelRegistry.Entry entry, Placement home) {
    PlacedStateStore.Loaded<OnlineEstimator> loaded = states.load(entry.spec().modelId(), home, entry.spec().modelId(),
        entry.noiseGeneration(), new PlacedStateStore.Restorer<>() {
          @Override
          public OnlineEstimator restore(byte[] state, NoiseKeyRing keys) throws IOException {
            return estimators.restore(entry.spec(), new DataInputStream(new ByteArrayInputStream(state)), keys);
          }

          @Override
          public OnlineEstimator start(NoiseKeyRing keys) {
            return estimators.start(entry.spec(), keys.primary());
          }

          @Override
          public long step(OnlineEstimator estimator) {
            return estimator.steps();
          }
        });
    return new Live(loaded.live(), loaded.generation());
  }

  @Override
  public void close() {
    live.clear();
    metrics.closed(reported);
    reported.clear();
    states.close();
  }
}
