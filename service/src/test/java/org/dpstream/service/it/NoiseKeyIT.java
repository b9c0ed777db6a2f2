package org.dpstream.service.it;

import static org.dpstream.service.it.HttpProbes.await;
import static org.dpstream.service.it.HttpProbes.awaitStatus;
import static org.dpstream.service.it.HttpProbes.freePort;
import static org.dpstream.service.it.HttpProbes.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKey;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.service.config.ModelConfig;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.routing.Placement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The noise key as an operator handles it, on a real broker with {@code dpstream run} in a child JVM and the key in
 * its environment: a restart under another key stops the model loudly (nothing released, its samples on dp.rejected
 * as NOISE_KEY_MISMATCH, /ready 503 naming it, one log line) and the right key resumes it, the rejected samples
 * replayed, every step released once, bit for bit; a rotation with the old key retired continues consecutively,
 * drawing the next epoch under the new key.
 */
@Timeout(600)
class NoiseKeyIT {

  private static final String KEY_A = ItModels.NOISE_KEY_HEX;
  private static final String KEY_B = "5f00a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e";
  private static final Duration WAIT = Duration.ofSeconds(120);

  @RegisterExtension
  static final KafkaHarness kafka = KafkaHarness.perClass();

  /** One model, its own topics and state directory, /ready and /metrics on a free port. */
  private record Setup(List<ModelConfig> models, Path configFile, Topics topics, String base) {
    static Setup of(String name, Path work) throws Exception {
      List<ModelConfig> models = ItModels.models(1).subList(0, 1); // linreg-p15: p = 1.5, horizon 64
      ServiceConfig shared = ItModels.serviceConfig(name, models, kafka.bootstrapServers(),
          work.resolve("state").toString());
      int port = freePort();
      ServiceConfig config = new ServiceConfig(shared.applicationId(), shared.topics(), models, shared.kafka(), port);
      return new Setup(models, ConfigFiles.write(config, work.resolve(name + ".yaml")),
          kafka.createTopics(config.topics()), "http://localhost:" + port);
    }

    String model() {
      return models.get(0).id();
    }
  }

  private static Map<String, String> primary(String key) {
    return Map.of(NoiseKey.ENVIRONMENT_VARIABLE, key);
  }

  private static KeyedNoiseSource placed(String hex, String model) {
    return Placement.of(model, ServiceConfig.DEFAULT_ROUTING_PARTITIONS)
        .noise(new KeyedNoiseSource(NoiseKey.ofBytes(HexFormat.of().parseHex(hex))));
  }

  private static byte[] bytes(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    return bytes;
  }

  @Test
  void anotherKeyStopsTheModelLoudlyAndTheRightKeyResumesItWithTheRejectedSamplesReplayed(@TempDir Path work)
      throws Exception {
    Setup setup = Setup.of("wrong-key", work);
    List<SampleRow> rows = SyntheticStream.generate(setup.models(), 40, 21L);
    try (CommittedTopicReader<ModelRelease> releases = kafka.releasesReader(setup.topics());
        CommittedTopicReader<RejectedRecord> rejected = kafka.rejectedReader(setup.topics())) {
      try (ServiceProcess underA = ServiceProcess.start(setup.configFile(), work.resolve("a.log"), primary(KEY_A))) {
        kafka.produceSamples(setup.topics().samples().name(), rows.subList(0, 20));
        releases.awaitAtLeast(20, WAIT, underA::isAlive, underA::logTail);
        underA.terminate(Duration.ofSeconds(60));
      }

      try (ServiceProcess underB = ServiceProcess.start(setup.configFile(), work.resolve("b.log"), primary(KEY_B))) {
        awaitStatus(setup.base() + "/ready", 200, WAIT, underB);
        kafka.produceSamples(setup.topics().samples().name(), rows.subList(20, 30));
        rejected.awaitAtLeast(10, WAIT, underB::isAlive, underB::logTail);
        assertEquals(List.of("NOISE_KEY_MISMATCH"), rejected.records().stream()
            .map(r -> r.value().getReason()).distinct().toList());
        HttpResponse<String> ready = await(setup.base() + "/ready", r -> r.statusCode() == 503, WAIT, underB);
        assertTrue(ready.body().contains("model " + setup.model() + " refused (NOISE_KEY_MISMATCH)"), ready.body());
        releases.readFor(Duration.ofSeconds(2));
        assertEquals(20, releases.count(), "nothing is released for a refused model");
        assertEquals(1, underB.logLinesContaining("model " + setup.model() + " is stopped (NOISE_KEY_MISMATCH)"),
            "one log line for the model, not one per record\n" + underB.logTail());
        underB.terminate(Duration.ofSeconds(60));
      }

      try (ServiceProcess againA = ServiceProcess.start(setup.configFile(), work.resolve("a2.log"), primary(KEY_A))) {
        // The operator replays the rejected samples, in their order, then the stream goes on.
        List<KafkaHarness.RawRecord> replay = rejected.records().stream().map(ConsumerRecord::value)
            .map(r -> new KafkaHarness.RawRecord(bytes(r.getOriginalKey()), bytes(r.getOriginalValue()))).toList();
        kafka.produce(setup.topics().samples().name(), replay);
        kafka.produceSamples(setup.topics().samples().name(), rows.subList(30, 40));
        releases.awaitAtLeast(40, WAIT, againA::isAlive, againA::logTail);
        releases.readFor(Duration.ofSeconds(1));
        ReleaseAssertions.assertReleasesMatchReference(ReferenceReleases.of(setup.models(), rows),
            releases.records());
        awaitStatus(setup.base() + "/ready", 200, WAIT, againA);
      }
    }
  }

  @Test
  void aRotationWithTheOldKeyRetiredContinuesConsecutivelyAndTheNextEpochIsDrawnUnderTheNewKey(@TempDir Path work)
      throws Exception {
    Setup setup = Setup.of("rotation", work);
    List<SampleRow> rows = SyntheticStream.generate(setup.models(), 100, 22L);
    // Epoch 0 (steps 1..64) under A, every later epoch under B: what the rotated service must release.
    Map<String, List<ReleaseFacts>> expected = ReferenceReleases.of(setup.models(), rows,
        model -> placed(KEY_A, model).handingOverAfter(0, placed(KEY_B, model)));
    Map<String, List<ReleaseFacts>> unrotated = ReferenceReleases.of(setup.models(), rows);
    try (CommittedTopicReader<ModelRelease> releases = kafka.releasesReader(setup.topics())) {
      try (ServiceProcess underA = ServiceProcess.start(setup.configFile(), work.resolve("a.log"), primary(KEY_A))) {
        kafka.produceSamples(setup.topics().samples().name(), rows.subList(0, 20));
        releases.awaitAtLeast(20, WAIT, underA::isAlive, underA::logTail);
        underA.terminate(Duration.ofSeconds(60));
      }
      Map<String, String> rotated = Map.of(NoiseKey.ENVIRONMENT_VARIABLE, KEY_B,
          NoiseKey.RETIRED_ENVIRONMENT_VARIABLE, KEY_A);
      try (ServiceProcess underB = ServiceProcess.start(setup.configFile(), work.resolve("b.log"), rotated)) {
        kafka.produceSamples(setup.topics().samples().name(), rows.subList(20, 90));
        releases.awaitAtLeast(90, WAIT, underB::isAlive, underB::logTail);
        String gauge = "dpstream_noise_key_bound_states{key=\"" + placed(KEY_B, setup.model()).keyCheck().hex()
            + "\",role=\"primary\"} 1.0";
        HttpResponse<String> metrics = await(setup.base() + "/metrics", r -> r.body().contains(gauge), WAIT, underB);
        String retired = "dpstream_noise_key_bound_states{key=\"" + placed(KEY_A, setup.model()).keyCheck().hex()
            + "\",role=\"retired\"} 0.0";
        assertTrue(metrics.body().contains(retired), "past its epoch boundary no state needs A: " + retired);
        underB.terminate(Duration.ofSeconds(60));
      }
      try (ServiceProcess withoutA = ServiceProcess.start(setup.configFile(), work.resolve("b2.log"), primary(KEY_B))) {
        kafka.produceSamples(setup.topics().samples().name(), rows.subList(90, 100));
        releases.awaitAtLeast(100, WAIT, withoutA::isAlive, withoutA::logTail);
        releases.readFor(Duration.ofSeconds(1));
      }
      ReleaseAssertions.assertReleasesMatchReference(expected, releases.records());
      List<ReleaseFacts> published = releases.records().stream().map(r -> ReleaseFacts.of(r.value())).toList();
      List<ReleaseFacts> beforeRotation = unrotated.get(setup.model());
      assertEquals(beforeRotation.subList(0, 64), published.subList(0, 64),
          "up to its epoch boundary the model releases what it would have without the rotation");
      assertTrue(!beforeRotation.subList(64, 100).equals(published.subList(64, 100)),
          "the next epoch is drawn under the new key");
    }
  }
}
