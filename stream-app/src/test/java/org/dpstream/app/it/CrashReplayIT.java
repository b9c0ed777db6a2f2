package org.dpstream.app.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.dpstream.app.config.ModelConfig;
import org.dpstream.app.config.ServiceConfig;
import org.dpstream.app.kafka.Topics;
import org.dpstream.schemas.ModelRelease;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Kill -9 mid-stream, restart, finish: every step of every model is released exactly once, bit for
 * bit as without the crash (architecture, section 6). The service runs as {@code dpstream run} in a
 * child JVM so that the kill skips everything a clean close would do; samples keep arriving while it
 * is down.
 */
@Timeout(180)
class CrashReplayIT {

  private static final int SAMPLES_PER_MODEL = 400;
  /** Produced before the first start; the first instance is killed while the next part streams in. */
  private static final double BEFORE_START = 0.4;
  private static final double BEFORE_RESTART = 0.8;
  /** Kill once this share of the releases is committed: past the backlog, inside the live part. */
  private static final double KILL_AFTER_COMMITTED = 0.45;
  private static final int LIVE_CHUNK = 10;
  private static final long LIVE_PAUSE_MS = 20;

  private static KafkaHarness kafka;

  /** Where the restarted instance finds its state. */
  enum Restart {
    /** Same state directory: RocksDB left dirty by the kill, same process id and transactional id. */
    SAME_STATE_DIR,
    /** Empty state directory, as on another machine: state restored from the changelog. */
    FRESH_STATE_DIR
  }

  @BeforeAll
  static void startBroker() {
    kafka = KafkaHarness.start();
  }

  @AfterAll
  static void stopBroker() {
    if (kafka != null) {
      kafka.close();
    }
  }

  @ParameterizedTest
  @EnumSource(Restart.class)
  void aKilledServiceRestartsAndReleasesEveryStepOnceBitForBit(Restart restart, @TempDir Path work)
      throws Exception {
    String name = "crash-" + restart.name().toLowerCase(Locale.ROOT).replace('_', '-');
    List<ModelConfig> models = ItModels.models(1);
    Path firstStateDir = work.resolve("state-1");
    Path secondStateDir = restart == Restart.SAME_STATE_DIR ? firstStateDir : work.resolve("state-2");
    ServiceConfig first = ItModels.serviceConfig(name, models, kafka.bootstrapServers(), firstStateDir.toString());
    ServiceConfig second = ItModels.serviceConfig(name, models, kafka.bootstrapServers(), secondStateDir.toString());
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
            () -> produceLive(samples, rows.subList(liveFrom, restartFrom), produced), liveProducer);
        releases.awaitAtLeast((int) (total * KILL_AFTER_COMMITTED), Duration.ofSeconds(60), service::isAlive,
            service::logTail);
        service.kill();
        producedAtKill = produced.get();
        committedAtKill = releases.poll();
      }
      live.get(60, TimeUnit.SECONDS); // the rest of the live part lands while the service is down
      System.out.printf("%s: killed with %d of %d produced samples' releases committed%n", name, committedAtKill,
          producedAtKill);
      assertTrue(committedAtKill < producedAtKill,
          "the kill should land mid-stream, with produced samples not yet committed: " + committedAtKill
              + " committed of " + producedAtKill + " produced");

      try (ServiceProcess service = ServiceProcess.start(secondConfig, work.resolve("second.log"))) {
        kafka.produceSamples(samples, rows.subList(restartFrom, total));
        releases.awaitAtLeast(total, Duration.ofSeconds(90), service::isAlive, service::logTail);
        releases.readFor(Duration.ofSeconds(1));
      }
      ReleaseAssertions.assertReleasesMatchReference(expected, releases.records());
    } finally {
      liveProducer.shutdownNow();
    }
  }

  private static void produceLive(String topic, List<SampleRow> rows, AtomicInteger produced) {
    for (int from = 0; from < rows.size(); from += LIVE_CHUNK) {
      List<SampleRow> chunk = rows.subList(from, Math.min(rows.size(), from + LIVE_CHUNK));
      kafka.produceSamples(topic, chunk);
      produced.addAndGet(chunk.size());
      try {
        Thread.sleep(LIVE_PAUSE_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
