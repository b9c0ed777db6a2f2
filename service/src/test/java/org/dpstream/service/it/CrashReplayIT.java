package org.dpstream.service.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.service.config.ModelConfig;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.kafka.Topics;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kill -9 mid-stream, restart, finish: every step of every model is released exactly once, bit for
 * bit as without the crash (architecture, section 6). The service runs as {@code dpstream run} in a
 * child JVM so that the kill skips everything a clean close would do; samples keep arriving while it
 * is down.
 *
 * <p>The restart follows the kill at once, as a supervisor would, and the time from the kill to the
 * first release the new instance commits is measured with Kafka's default session timeout (45 s), with
 * and without static membership ({@code instanceId}): without it the group waits for the dead member's
 * session to expire; with it the restarted member takes its place at once.
 */
@Timeout(240)
class CrashReplayIT {

  private static final int SAMPLES_PER_MODEL = 400;
  /** Produced before the first start; the first instance is killed while the next part streams in. */
  private static final double BEFORE_START = 0.4;
  private static final double BEFORE_RESTART = 0.8;
  /** Kill once this share of the releases is committed: past the backlog, inside the live part. */
  private static final double KILL_AFTER_COMMITTED = 0.45;
  private static final int LIVE_CHUNK = 10;
  private static final long LIVE_PAUSE_MS = 20;
  /**
   * Kill to first new release with static membership: measured 4.7 and 7.6 s on a 2-core machine under a
   * load average of 15 (README, "Restarts and static membership"); without it, 45.0 s (the session timeout).
   */
  private static final Duration STATIC_RECOVERY_BOUND = Duration.ofSeconds(25);
  /** Without static membership: the session timeout, plus the same start-up as above. */
  private static final Duration DYNAMIC_RECOVERY_BOUND = Duration.ofSeconds(45 + 25);

  @RegisterExtension
  static final KafkaHarness kafka = KafkaHarness.perClass();

  /** Where the restarted instance finds its state. */
  enum Restart {
    /** Same state directory: RocksDB left dirty by the kill, same process id and transactional id. */
    SAME_STATE_DIR,
    /** Empty state directory, as on another machine: state restored from the changelog. */
    FRESH_STATE_DIR
  }

  /** How the restarted instance rejoins the consumer group. */
  enum Membership {
    /** {@code instanceId} set, the same before and after the crash. */
    STATIC,
    /** No {@code instanceId}: a new member, admitted once the dead one's session has expired. */
    DYNAMIC
  }

  static Stream<Arguments> scenarios() {
    return Stream.of(
        Arguments.of(Restart.SAME_STATE_DIR, Membership.STATIC),
        Arguments.of(Restart.FRESH_STATE_DIR, Membership.STATIC),
        Arguments.of(Restart.SAME_STATE_DIR, Membership.DYNAMIC));
  }

  @ParameterizedTest
  @MethodSource("scenarios")
  void aKilledServiceRestartsAndReleasesEveryStepOnceBitForBit(Restart restart, Membership membership,
      @TempDir Path work) throws Exception {
    String name = "crash-" + (restart.name() + "-" + membership.name()).toLowerCase(Locale.ROOT).replace('_', '-');
    List<ModelConfig> models = ItModels.models(1);
    Path firstStateDir = work.resolve("state-1");
    Path secondStateDir = restart == Restart.SAME_STATE_DIR ? firstStateDir : work.resolve("state-2");
    String instanceId = membership == Membership.STATIC ? name + "-instance" : null;
    ServiceConfig first = withDefaultSessionTimeout(
        ItModels.serviceConfig(name, models, kafka.bootstrapServers(), firstStateDir.toString()), instanceId);
    ServiceConfig second = withDefaultSessionTimeout(
        ItModels.serviceConfig(name, models, kafka.bootstrapServers(), secondStateDir.toString()), instanceId);
    Path firstConfig = ConfigFiles.write(first, work.resolve("first.yaml"));
    Path secondConfig = ConfigFiles.write(second, work.resolve("second.yaml"));
    Topics topics = kafka.createTopics(first.topics());
    String samples = topics.samples().name();

    List<SampleRow> rows = SyntheticStream.generate(models, SAMPLES_PER_MODEL, 99L + restart.ordinal());
    Map<String, List<ReleaseFacts>> expected = ReferenceReleases.of(models, rows);
    int total = rows.size();
    int liveFrom = (int) (total * BEFORE_START);
    int restartFrom = (int) (total * BEFORE_RESTART);

    ExecutorService liveProducer = Executors.newSingleThreadExecutor();
    try (CommittedTopicReader<ModelRelease> releases = kafka.releasesReader(topics)) {
      kafka.produceSamples(samples, rows.subList(0, liveFrom));
      AtomicInteger produced = new AtomicInteger(liveFrom);
      int committedAtKill;
      int producedAtKill;
      CompletableFuture<Void> live;
      try (ServiceProcess service = ServiceProcess.start(firstConfig, work.resolve("first.log"))) {
        releases.awaitAtLeast(1, Duration.ofSeconds(60), service::isAlive, service::logTail);
        // Samples keep arriving, so at the kill the service is mid-transaction with input still pending.
        live = CompletableFuture.runAsync(
            () -> kafka.produceLive(samples, rows.subList(liveFrom, restartFrom), LIVE_CHUNK, LIVE_PAUSE_MS, produced), liveProducer);
        releases.awaitAtLeast((int) (total * KILL_AFTER_COMMITTED), Duration.ofSeconds(60), service::isAlive,
            service::logTail);
        service.kill();
        producedAtKill = produced.get();
      }
      long killed = System.nanoTime();
      // Restarted at once, as a supervisor would; the rest of the live part keeps landing meanwhile.
      try (ServiceProcess service = ServiceProcess.start(secondConfig, work.resolve("second.log"))) {
        // What the killed instance committed is readable at once; the new JVM needs seconds to start.
        releases.readFor(Duration.ofMillis(500));
        committedAtKill = releases.count();
        releases.awaitAtLeast(committedAtKill + 1, Duration.ofSeconds(120), service::isAlive, service::logTail);
        Duration recovery = Duration.ofNanos(System.nanoTime() - killed);
        System.out.printf("%s: killed with %d of %d produced samples' releases committed; first new release"
            + " %.1f s after the kill (%s membership, default session timeout)%n", name, committedAtKill,
            producedAtKill, recovery.toMillis() / 1000.0, membership);
        assertTrue(committedAtKill < producedAtKill,
            "the kill should land mid-stream, with produced samples not yet committed: " + committedAtKill
                + " committed of " + producedAtKill + " produced");
        Duration bound = membership == Membership.STATIC ? STATIC_RECOVERY_BOUND : DYNAMIC_RECOVERY_BOUND;
        assertTrue(recovery.compareTo(bound) <= 0, "recovery took " + recovery + ", bound " + bound + "\n"
            + service.logTail());
        live.get(60, TimeUnit.SECONDS);
        kafka.produceSamples(samples, rows.subList(restartFrom, total));
        releases.awaitAtLeast(total, Duration.ofSeconds(90), service::isAlive, service::logTail);
        releases.readFor(Duration.ofSeconds(1));
      }
      ReleaseAssertions.assertReleasesMatchReference(expected, releases.records());
    } finally {
      liveProducer.shutdownNow();
    }
  }

  /**
   * Kafka's default session timeout (the ITs' shared config shortens it to 6 s), so the recovery time is
   * what an operator gets; with static membership, this instance's id.
   */
  private static ServiceConfig withDefaultSessionTimeout(ServiceConfig config, String instanceId) {
    Map<String, String> kafkaSettings = new HashMap<>(config.kafka());
    kafkaSettings.remove("session.timeout.ms");
    kafkaSettings.remove("heartbeat.interval.ms");
    return new ServiceConfig(config.applicationId(), config.topics(), config.models(), kafkaSettings,
        config.metricsPort(), config.bandits(), config.routingPartitions(), config.output(), config.createTopics(), instanceId);
  }
}
