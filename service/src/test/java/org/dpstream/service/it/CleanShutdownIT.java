package org.dpstream.service.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.service.config.ModelConfig;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.kafka.Topics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGTERM is a clean stop: the shutdown hook closes Kafka Streams (committing or aborting the open
 * transaction and leaving the consumer group) before the JVM exits. A hook that only released the main
 * thread let the JVM halt first, so every stop looked like a crash to the broker and the group.
 */
@Timeout(120)
class CleanShutdownIT {

  @RegisterExtension
  static final KafkaHarness kafka = KafkaHarness.perClass();

  @Test
  void sigtermClosesStreamsAndCheckpointsTheState(@TempDir Path work) throws Exception {
    List<ModelConfig> models = ItModels.models(1);
    Path stateDir = work.resolve("state");
    ServiceConfig config = ItModels.serviceConfig("clean-stop", models, kafka.bootstrapServers(), stateDir.toString());
    Topics topics = kafka.createTopics(config.topics());
    List<SampleRow> rows = SyntheticStream.generate(models, 30, 5L);
    try (CommittedTopicReader<ModelRelease> releases = kafka.releasesReader(topics);
        ServiceProcess service = ServiceProcess.start(ConfigFiles.write(config, work.resolve("c.yaml")), work.resolve("s.log"))) {
      kafka.produceSamples(topics.samples().name(), rows);
      releases.awaitAtLeast(rows.size(), Duration.ofSeconds(60), service::isAlive, service::logTail);
      service.terminate(Duration.ofSeconds(60));
      String log = Files.readString(work.resolve("s.log"));
      assertTrue(log.contains("dpstream stopped: NOT_RUNNING"), "Streams was not closed on SIGTERM\n" + service.logTail());
    }
  }
}
