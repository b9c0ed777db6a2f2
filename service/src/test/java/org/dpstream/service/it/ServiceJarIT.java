package org.dpstream.service.it;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipFile;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.service.config.ModelConfig;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.kafka.Topics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * dpstream-service.jar, what the Docker image ships, runs the service by itself: {@code java -jar
 * dpstream-service.jar run --config FILE} against a real broker releases every step of every model bit
 * for bit as the reference computation (RocksDB state, zstd-compressed transactional output: the native
 * libraries the jar keeps for this platform), and the jar carries neither the broker nor the demo.
 */
@Timeout(180)
class ServiceJarIT {

  @RegisterExtension
  static final KafkaHarness kafka = KafkaHarness.perClass();

  /** Built by this module's package phase, before its integration tests ({@code mvn -pl service -am verify}). */
  private static Path serviceJar() {
    Path jar = Path.of("").toAbsolutePath().resolveSibling("service").resolve("target").resolve("dpstream-service.jar");
    assertTrue(Files.isRegularFile(jar), jar + " is missing: build it with mvn -pl service -am package");
    return jar;
  }

  @Test
  void theServiceJarRunsTheServiceAndReleasesEveryStep(@TempDir Path work) throws Exception {
    List<ModelConfig> models = ItModels.models(1);
    ServiceConfig config = ItModels.serviceConfig("service-jar", models, kafka.bootstrapServers(),
        work.resolve("state").toString());
    Topics topics = kafka.createTopics(config.topics());
    List<SampleRow> rows = SyntheticStream.generate(models, 40, 11L);
    Map<String, List<ReleaseFacts>> expected = ReferenceReleases.of(models, rows);
    Path configFile = withZstdOutput(ConfigFiles.write(config, work.resolve("service.yaml")));
    try (CommittedTopicReader<ModelRelease> releases = kafka.releasesReader(topics);
        ServiceProcess service = ServiceProcess.startJar(serviceJar(), List.of("run", "--config", configFile.toString()),
            work.resolve("service.log"))) {
      kafka.produceSamples(topics.samples().name(), rows);
      releases.awaitAtLeast(rows.size(), Duration.ofSeconds(90), service::isAlive, service::logTail);
      releases.readFor(Duration.ofSeconds(1));
      ReleaseAssertions.assertReleasesMatchReference(expected, releases.records());
    }
  }

  /** The config file with {@code kafka: compression.type: zstd}, so the service's producers need zstd's native library. */
  private static Path withZstdOutput(Path configFile) throws IOException {
    ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
    ObjectNode tree = (ObjectNode) yaml.readTree(configFile.toFile());
    ((ObjectNode) tree.get("kafka")).put("compression.type", "zstd");
    yaml.writeValue(configFile.toFile(), tree);
    return configFile;
  }

  @Test
  void theServiceJarHoldsNoBrokerNoDemoAndNoPlots() throws IOException {
    try (ZipFile jar = new ZipFile(serviceJar().toFile())) {
      assertNotNull(jar.getEntry("org/dpstream/service/ServiceCli.class"));
      assertNotNull(jar.getEntry("org/dpstream/service/RunCommand.class"));
      assertNull(jar.getEntry("kafka/server/KafkaRaftServer.class"), "the broker");
      assertNull(jar.getEntry("scala/Predef.class"), "the broker's Scala library");
      assertNull(jar.getEntry("org/dpstream/testkit/EmbeddedKafka.class"), "the testkit");
      assertNull(jar.getEntry("org/dpstream/demo/DemoCommand.class"), "the demo");
      assertNull(jar.getEntry("org/dpstream/options/PrivacyOptions.class"), "the experiments' options");
      assertNull(jar.getEntry("org/knowm/xchart/XYChart.class"), "the demo's plots");
      assertNull(jar.getEntry("librocksdbjni-win64.dll"), "RocksDB for another platform");
    }
  }
}
