package org.dpstream.service.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.streams.KafkaStreams;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.service.config.ModelConfig;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.kafka.Topics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka Streams' own scale-out: three instances with one application id (two in this JVM, one a child
 * JVM) learn twelve models; the child is SIGKILLed mid-stream and started again. Every model's releases
 * are consecutive, unique and bit for bit those of its estimator run directly over its samples, which is
 * what one instance publishes ({@link EndToEndIT}): the unit of parallelism is a model, and moving a
 * model between instances changes nothing in what it publishes.
 */
@Timeout(300)
class ScaleOutIT {

  private static final int MODELS = 12;
  private static final int SAMPLES_PER_MODEL = 120;
  private static final double BEFORE_START = 0.2;
  private static final double KILL_AFTER_COMMITTED = 0.4;
  private static final int LIVE_CHUNK = 12;
  private static final long LIVE_PAUSE_MS = 40;
  /** Routers of the two sample partitions and learners of the six routing partitions. */
  private static final int TASKS = ItModels.SAMPLE_PARTITIONS + ServiceConfig.DEFAULT_ROUTING_PARTITIONS;

  @RegisterExtension
  static final KafkaHarness kafka = KafkaHarness.perClass();

  private static List<ModelConfig> models() {
    String[] geometries = {"1.5", "inf", "1"};
    List<ModelConfig> models = new ArrayList<>();
    for (int i = 0; i < MODELS; i++) {
      models.add(new ModelConfig(String.format("scale-%02d", i), ItModels.DIMENSION, "squared", geometries[i % 3], 1,
          1, 1e-5, ItModels.HORIZON, 1, 1.5, null, null, "auto", 1));
    }
    return models;
  }

  private static ServiceConfig instance(List<ModelConfig> models, Path stateDir) {
    ServiceConfig base = ItModels.serviceConfig("scale-out", models, kafka.bootstrapServers(), stateDir.toString());
    return base;
  }

  @Test
  void threeInstancesOneKilledAndRestartedPublishEveryModelsStepsOnceBitForBit(@TempDir Path work) throws Exception {
    List<ModelConfig> models = models();
    ServiceConfig first = instance(models, work.resolve("state-a"));
    ServiceConfig second = instance(models, work.resolve("state-b"));
    Path thirdConfig = ConfigFiles.write(instance(models, work.resolve("state-c")), work.resolve("c.yaml"));
    Topics topics = kafka.createTopics(first.topics());
    String samples = topics.samples().name();
    List<SampleRow> rows = SyntheticStream.generate(models, SAMPLES_PER_MODEL, 1123L);
    Map<String, List<ReleaseFacts>> expected = ReferenceReleases.of(models, rows);
    int total = rows.size();
    int upfront = (int) (total * BEFORE_START);

    ExecutorService liveProducer = Executors.newSingleThreadExecutor();
    try (CommittedTopicReader<ModelRelease> releases = kafka.releasesReader(topics);
        CommittedTopicReader<RejectedRecord> rejected = kafka.rejectedReader(topics);
        InProcessService a = new InProcessService(first);
        InProcessService b = new InProcessService(second)) {
      AtomicInteger produced = new AtomicInteger(upfront);
      CompletableFuture<Void> live;
      Set<String> heldByInProcess;
      int committedAtKill;
      int producedAtKill;
      try (ServiceProcess c = ServiceProcess.start(thirdConfig, work.resolve("c-first.log"))) {
        // Before any data, every task is caught up, so the three instances share the tasks at once.
        awaitTasksSpread(a, b, c);
        kafka.produceSamples(samples, rows.subList(0, upfront));
        live = CompletableFuture.runAsync(() -> kafka.produceLive(samples, rows.subList(upfront, total), LIVE_CHUNK, LIVE_PAUSE_MS, produced),
            liveProducer);
        releases.awaitAtLeast((int) (total * KILL_AFTER_COMMITTED), Duration.ofSeconds(90), c::isAlive, c::logTail);
        heldByInProcess = localTasks(a, b);
        c.kill();
        producedAtKill = produced.get();
        committedAtKill = releases.poll();
      }
      System.out.printf("scale-out: killed the third instance with %d releases committed of %d samples produced;"
          + " the in-process instances held %s%n", committedAtKill, producedAtKill, heldByInProcess);
      assertTrue(heldByInProcess.size() < TASKS, "the killed instance held tasks: others held " + heldByInProcess);
      assertTrue(committedAtKill < producedAtKill, "the kill should land mid-stream");
      live.get(60, TimeUnit.SECONDS);
      try (ServiceProcess c = ServiceProcess.start(thirdConfig, work.resolve("c-second.log"))) {
        releases.awaitAtLeast(total, Duration.ofSeconds(150), () -> a.isUp() && b.isUp(), c::logTail);
        releases.readFor(Duration.ofSeconds(1));
      }
      rejected.readFor(Duration.ofMillis(300));
      ReleaseAssertions.assertReleasesMatchReference(expected, releases.records());
      assertEquals(0, rejected.count(), "nothing rejected: " + rejected.records());
    } finally {
      liveProducer.shutdownNow();
    }
  }

  private static Set<String> localTasks(InProcessService a, InProcessService b) {
    Set<String> held = new TreeSet<>(a.service.activeTasks());
    held.addAll(b.service.activeTasks());
    return held;
  }

  private static void awaitTasksSpread(InProcessService a, InProcessService b, ServiceProcess c)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    while (!(a.service.state() == KafkaStreams.State.RUNNING && b.service.state() == KafkaStreams.State.RUNNING
        && !a.service.activeTasks().isEmpty() && !b.service.activeTasks().isEmpty()
        && localTasks(a, b).size() < TASKS)) {
      if (System.nanoTime() > deadline || !c.isAlive()) {
        throw new AssertionError("the three instances did not share the tasks within 90 s: in-process instances hold "
            + localTasks(a, b) + "\n" + c.logTail());
      }
      Thread.sleep(100);
    }
  }
}
