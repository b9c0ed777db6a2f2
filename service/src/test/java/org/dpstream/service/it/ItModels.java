package org.dpstream.service.it;

import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKey;
import org.dpstream.service.config.BanditConfig;
import org.dpstream.service.config.DeciderConfig;
import org.dpstream.service.config.ModelConfig;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.kafka.TopicNames;
import org.dpstream.service.routing.Placement;

/**
 * The models and noise key every integration test runs with: three geometries (p = 1.5 and inf for
 * DP-TOFW, p = 1 for DP-POFW), a small horizon so the streams cross tree epochs, and ids whose keys
 * hash to both partitions of a two-partition topic so the service runs more than one task.
 */
final class ItModels {

  static final int DIMENSION = 5;
  static final int SAMPLE_PARTITIONS = 2;
  /** Small enough that a few hundred samples per model span several tree epochs. */
  static final long HORIZON = 64;

  /** Hex, as an operator would put it in DPSTREAM_NOISE_KEY. */
  static final String NOISE_KEY_HEX = HexFormat.of().formatHex(keyMaterial());

  private ItModels() {}

  private static byte[] keyMaterial() {
    byte[] material = new byte[NoiseKey.MINIMUM_BYTES];
    for (int i = 0; i < material.length; i++) {
      material[i] = (byte) (7 * i + 11);
    }
    return material;
  }

  /** The noise of model or bandit {@code id} in a service with the default routing: the key's, scoped by placement. */
  static KeyedNoiseSource noiseOf(String id) {
    return Placement.of(id, ServiceConfig.DEFAULT_ROUTING_PARTITIONS).noise(new KeyedNoiseSource(noiseKey()));
  }

  static NoiseKey noiseKey() {
    return NoiseKey.ofBytes(keyMaterial());
  }

  /**
   * The three models; {@code releaseEveryOfP1} lets a test check the every-k-th-step release of the
   * p = 1 model while the others release every step. Ids chosen so that Kafka's default partitioner
   * puts linreg-pinf on partition 0 and the other two on partition 1 (checked by {@link EndToEndIT}).
   */
  static List<ModelConfig> models(int releaseEveryOfP1) {
    return List.of(
        model("linreg-p15", "1.5", 1),
        model("linreg-pinf", "inf", 1),
        model("linreg-p1", "1", releaseEveryOfP1));
  }

  private static ModelConfig model(String id, String p, int releaseEvery) {
    return new ModelConfig(id, DIMENSION, "squared", p, 1, 1, 1e-5, HORIZON, 1, 1.5, null, null, "auto", releaseEvery);
  }

  /** Topic names under a per-test prefix, so tests sharing a broker never see each other's records. */
  static TopicNames topicNames(String prefix) {
    TopicNames defaults = TopicNames.defaults();
    return new TopicNames(prefix + defaults.samples(), prefix + defaults.releases(), prefix + defaults.rejected(),
        prefix + defaults.contexts(), prefix + defaults.decisions(), prefix + defaults.rewards());
  }

  /**
   * The service's config for one test: its own application id and topics, the embedded broker, a
   * state directory of the test's, short commit interval and session timeout (so a restarted instance
   * takes over a crashed one's partitions within seconds instead of the default 45 s).
   */
  static ServiceConfig serviceConfig(String testName, List<ModelConfig> models, String bootstrapServers,
      String stateDir) {
    Map<String, String> kafka = new LinkedHashMap<>();
    kafka.put("bootstrap.servers", bootstrapServers);
    kafka.put("state.dir", stateDir);
    kafka.put("commit.interval.ms", "100");
    kafka.put("session.timeout.ms", "6000");
    kafka.put("heartbeat.interval.ms", "1000");
    return new ServiceConfig("it-" + testName, topicNames(testName + "."), models, kafka, 0);
  }

  /** A service of these bandits and no model, deciding in the learning topology (no API). */
  static ServiceConfig banditsDecidingInTopology(String testName, List<BanditConfig> bandits, String bootstrapServers,
      String stateDir) {
    return serviceConfig(testName, List.of(), bootstrapServers, stateDir).withBandits(bandits)
        .withDecider(DeciderConfig.decidingInTopology());
  }
}
