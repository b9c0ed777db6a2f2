package org.dpstream.service.decide.follower;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.dpstream.bandit.release.DecisionRule;
import org.dpstream.bandit.release.ReleasedBandit;
import org.dpstream.schemas.BanditStepRelease;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.service.config.BanditRegistry;
import org.dpstream.service.decide.DecisionRules;
import org.dpstream.service.kafka.ClientFailures;
import org.dpstream.service.kafka.PollingThreads;
import org.dpstream.service.serde.DecodeResult;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.service.serde.SchemaSerde;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows dp.releases with a read_committed consumer (no group: every instance reads every partition)
 * and keeps {@link ReleasedBandits} at the latest committed release of every configured bandit. On start
 * it reads the topic from its beginning, so an instance restarted with nothing in memory is back at the
 * last released parameters once it has caught up ({@link #awaitCaughtUp}). Only committed releases are
 * ever read: what a decider knows is exactly what was published.
 *
 * <p>Release keys are {@code banditId} (a {@code BanditStepRelease}: every arm's parameters at one step, and the
 * extras released with it; the default format), {@code banditId/arm-i} (arm i's parameters, the per-arm format) and
 * {@code banditId/NAME} (an extra the rule may read, all arms' vectors concatenated); anything else, a release of an unconfigured bandit, or
 * of another algorithm than the bandit's rule, is skipped. A release of a later noise generation (its ledger says
 * so) starts the bandit's assembly again from its start; releases of an earlier one are skipped.
 */
public final class ReleaseFollower implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ReleaseFollower.class);
  private static final String ARM_PREFIX = "arm-";

  private final Consumer<String, byte[]> consumer;
  private final String topic;
  private final ReleasedBandits released;
  private final Map<String, ReleaseAssembler> assemblers = new HashMap<>();
  private final Map<String, DecisionRule> rules = new HashMap<>();
  private final SchemaSerde<ModelRelease> serde = DpSerdes.modelRelease();
  private final SchemaSerde<BanditStepRelease> steps = DpSerdes.banditStepRelease();
  private final CountDownLatch caughtUp = new CountDownLatch(1);
  private final Thread thread;
  private final ClientFailures failures;
  private volatile boolean closed;

  /** A follower of {@code topic} through {@code consumer}, not started: {@link #start} starts one, tests drive it by {@link #apply}. */
  public ReleaseFollower(Consumer<String, byte[]> consumer, String topic, BanditRegistry bandits,
      ReleasedBandits released) {
    this(consumer, topic, bandits, released, ClientFailures.NONE);
  }

  private ReleaseFollower(Consumer<String, byte[]> consumer, String topic, BanditRegistry bandits,
      ReleasedBandits released, ClientFailures failures) {
    this.failures = failures;
    this.consumer = consumer;
    this.topic = topic;
    this.released = released;
    for (BanditRegistry.Entry entry : bandits.all()) {
      String id = entry.spec().banditId();
      DecisionRule rule = DecisionRules.of(entry);
      ReleaseAssembler assembler = new ReleaseAssembler(id, rule, entry.spec().arms(), entry.spec().dimension());
      assemblers.put(id, assembler);
      rules.put(id, rule);
      released.publish(assembler.initial());
    }
    this.thread = new Thread(this::run, "dpstream-release-follower");
    this.thread.setDaemon(true);
  }

  /**
   * Starts following {@code topic} with a consumer of {@code clientConfig} (bootstrap servers, security); a
   * failure that stops the follower is reported to {@code failures}.
   */
  public static ReleaseFollower start(Map<String, Object> clientConfig, String topic, BanditRegistry bandits,
      ReleasedBandits released, ClientFailures failures) {
    Map<String, Object> settings = new HashMap<>(clientConfig);
    settings.remove(ConsumerConfig.GROUP_ID_CONFIG);
    settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    ReleaseFollower follower = new ReleaseFollower(
        new KafkaConsumer<>(settings, new StringDeserializer(), new ByteArrayDeserializer()), topic, bandits, released,
        failures);
    follower.thread.start();
    return follower;
  }

  /** Starts following {@code topic} through {@code consumer} (tests: a mock consumer). */
  static ReleaseFollower start(Consumer<String, byte[]> consumer, String topic, BanditRegistry bandits,
      ReleasedBandits released) {
    ReleaseFollower follower = new ReleaseFollower(consumer, topic, bandits, released);
    follower.thread.start();
    return follower;
  }

  /**
   * Waits until every release that was committed when the follower started has been read; returns false
   * after {@code timeout}, or as soon as the follower has stopped (it would never catch up).
   */
  public boolean awaitCaughtUp(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!caughtUp.await(Math.min(STOPPED_CHECK_MILLIS,
        Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()))), TimeUnit.MILLISECONDS)) {
      if (System.nanoTime() >= deadline || (thread.getState() != Thread.State.NEW && !thread.isAlive())) {
        return false;
      }
    }
    return true;
  }

  private static final long STOPPED_CHECK_MILLIS = 100;

  private void run() {
    try {
      List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
          .map(info -> new TopicPartition(topic, info.partition()))
          .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> startEnds = consumer.endOffsets(partitions);
      while (!closed) {
        // Only each key's last record of a batch is decoded: the steps before it would be replaced at once. A bandit's
        // earlier step records of the batch are kept aside: one may carry an extra the newest step needs (DP-HDB's
        // forced-sampling estimators ride in one step every 1,000 rounds), and they are read only when it does.
        Map<String, ConsumerRecord<String, byte[]>> newest = new java.util.LinkedHashMap<>();
        Map<String, List<ConsumerRecord<String, byte[]>>> earlierSteps = new HashMap<>();
        for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(100))) {
          if (record.key() != null) {
            ConsumerRecord<String, byte[]> replaced = newest.remove(record.key());
            if (replaced != null && assemblers.containsKey(record.key())) {
              earlierSteps.computeIfAbsent(record.key(), key -> new java.util.ArrayList<>()).add(replaced);
            }
            newest.put(record.key(), record);
          }
        }
        for (ConsumerRecord<String, byte[]> record : newest.values()) {
          if (!apply(record)) {
            earlierSteps.getOrDefault(record.key(), List.of()).forEach(this::apply);
          }
        }
        if (caughtUp.getCount() > 0 && startEnds.entrySet().stream()
            .allMatch(end -> consumer.position(end.getKey()) >= end.getValue())) {
          caughtUp.countDown();
        }
      }
    } catch (WakeupException e) {
      if (!closed) {
        throw e;
      }
    } catch (RuntimeException e) {
      // Decisions go on from the last release read; /ready of the decider reports the follower stopped. A refused
      // ACL stops the service instead, with its own message.
      if (!failures.report("the release follower", e)) {
        LOG.error("following {} stopped; decisions continue from the last release read", topic, e);
      }
    } finally {
      consumer.close(Duration.ofSeconds(5));
    }
  }

  /** Whether every release committed when the follower started has been read. */
  public boolean isCaughtUp() {
    return caughtUp.getCount() == 0;
  }

  /** Whether the follower thread is still reading. */
  public boolean isAlive() {
    return thread.isAlive();
  }

  /**
   * Takes one record of the topic into its bandit's assembly (the follower thread's step).
   *
   * @return whether it completed a newer step of its bandit, which the deciders now decide from
   */
  public boolean apply(ConsumerRecord<String, byte[]> record) {
    String key = record.key();
    if (key == null) {
      return false;
    }
    if (assemblers.containsKey(key)) {
      return applyStep(key, record);
    }
    int slash = key.lastIndexOf('/');
    if (slash < 0) {
      return false;
    }
    String banditId = key.substring(0, slash);
    if (!assemblers.containsKey(banditId)) {
      return false;
    }
    DecodeResult<ModelRelease> decoded = serde.decode(record.value());
    if (!(decoded instanceof DecodeResult.Decoded<ModelRelease> ok)) {
      skipUndecodable(banditId, record);
      return false;
    }
    ModelRelease release = ok.value();
    ReleaseAssembler assembler = assemblerOf(banditId, release.getLedger(), release.getAlgorithm());
    if (assembler == null) {
      return false;
    }
    double[] parameters = values(release.getParameters());
    String name = key.substring(slash + 1);
    ReleasedBandit complete;
    if (name.startsWith(ARM_PREFIX)) {
      int arm;
      try {
        arm = Integer.parseInt(name.substring(ARM_PREFIX.length()));
      } catch (NumberFormatException e) {
        return false;
      }
      complete = assembler.arm(arm, release.getStep(), parameters);
    } else {
      complete = assembler.extra(name, release.getStep(), parameters);
    }
    return publish(complete);
  }

  private boolean publish(ReleasedBandit complete) {
    if (complete == null) {
      return false;
    }
    released.publish(complete);
    return true;
  }

  /** A bandit's step record (key = bandit id): every arm at once, and the extras it carries. */
  private boolean applyStep(String banditId, ConsumerRecord<String, byte[]> record) {
    DecodeResult<BanditStepRelease> decoded = steps.decode(record.value());
    if (!(decoded instanceof DecodeResult.Decoded<BanditStepRelease> ok)) {
      skipUndecodable(banditId, record);
      return false;
    }
    BanditStepRelease step = ok.value();
    ReleaseAssembler assembler = assemblerOf(banditId, step.getLedger(), step.getAlgorithm());
    if (assembler == null) {
      return false;
    }
    ReleasedBandit complete = null;
    for (Map.Entry<String, List<Double>> extra : step.getExtras().entrySet()) {
      complete = newer(complete, assembler.extra(extra.getKey(), step.getStep(), values(extra.getValue())));
    }
    double[][] arms = new double[step.getArms().size()][];
    for (int arm = 0; arm < arms.length; arm++) {
      arms[arm] = values(step.getArms().get(arm));
    }
    return publish(newer(complete, assembler.whole(step.getStep(), arms)));
  }

  private static ReleasedBandit newer(ReleasedBandit known, ReleasedBandit candidate) {
    return candidate == null ? known : candidate;
  }

  private static void skipUndecodable(String banditId, ConsumerRecord<String, byte[]> record) {
    LOG.warn("bandit {}: an undecodable release at {}-{}@{} was skipped", banditId, record.topic(),
        record.partition(), record.offset());
  }

  /**
   * The assembler a release of {@code banditId} goes to, or null if it is skipped: a release of a generation the
   * bandit has left, or of another algorithm than the bandit's rule. A release of a later noise generation starts the
   * bandit again from its start.
   */
  private ReleaseAssembler assemblerOf(String banditId, org.dpstream.schemas.PrivacyLedger ledger, String algorithm) {
    ReleaseAssembler assembler = assemblers.get(banditId);
    Integer stated = ledger.getGeneration();
    int generation = stated == null ? 0 : stated;
    if (generation < assembler.generation()) {
      return null; // a release of a generation the bandit has left
    }
    if (generation > assembler.generation()) {
      // The bandit started again in a new noise generation, at step 1: decisions start again from its start.
      assembler = assembler.next(generation);
      assemblers.put(banditId, assembler);
      released.restart(assembler.initial());
    }
    int family = algorithm.indexOf('/');
    if (!(family < 0 ? algorithm : algorithm.substring(0, family)).equals(rules.get(banditId).algorithm())) {
      return null;
    }
    return assembler;
  }

  private static double[] values(List<Double> list) {
    double[] values = new double[list.size()];
    for (int j = 0; j < values.length; j++) {
      values[j] = list.get(j);
    }
    return values;
  }

  @Override
  public void close() {
    closed = true;
    PollingThreads.stop(consumer, thread);
  }
}
