package org.dpstream.service.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.dpstream.schemas.Sample;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.testkit.EmbeddedKafka;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's producers, run as a user runs them, write a sample the service decodes: the Java one always, the
 * Python one (confluent-kafka) when Debian's python3 has the module ({@code apt-get install python3-confluent-kafka};
 * .ci/run installs it when it can), and is skipped, saying why, otherwise.
 */
class ProducerExamplesIT {

  private static final String PYTHON = "/usr/bin/python3";
  private EmbeddedKafka kafka;

  @BeforeEach
  void startBroker() {
    kafka = EmbeddedKafka.start();
    kafka.createTopics(new NewTopic("dp.samples", 1, (short) 1));
  }

  @AfterEach
  void stopBroker() {
    if (kafka != null) {
      kafka.close();
    }
  }

  @Test
  void theJavaProducerWritesASampleTheServiceDecodes(@TempDir Path directory) throws Exception {
    String java = ReadmeExamples.block("java");
    JavaProducerExampleTest.compile(java, directory);
    try (URLClassLoader loader = new URLClassLoader(new URL[] {directory.toUri().toURL()}, getClass().getClassLoader())) {
      loader.loadClass(ReadmeExamples.className(java)).getMethod("main", String[].class)
          .invoke(null, (Object) new String[] {kafka.bootstrapServers()});
    }
    assertOneSampleFor("lr-p1.5");
  }

  @Test
  void thePythonProducerWritesASampleTheServiceDecodes(@TempDir Path directory) throws Exception {
    assumeTrue(Files.isExecutable(Path.of(PYTHON)), PYTHON + " is not installed");
    assumeTrue(run(List.of(PYTHON, "-c", "import confluent_kafka"), directory) == 0,
        "Debian's python3-confluent-kafka is not installed (apt-get install python3-confluent-kafka)");
    Path script = directory.resolve("send_sample.py");
    Files.writeString(script, ReadmeExamples.block("python"));
    assertEquals(0, run(List.of(PYTHON, script.toString(), kafka.bootstrapServers()), directory),
        Files.readString(directory.resolve("python.log")));
    assertOneSampleFor("lr-p1.5");
  }

  private void assertOneSampleFor(String modelId) {
    Map<String, Object> settings = new java.util.HashMap<>(kafka.clientConfig());
    settings.put("auto.offset.reset", "earliest");
    settings.put("group.id", "producer-examples");
    List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
    try (KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(settings, new StringDeserializer(), new ByteArrayDeserializer())) {
      consumer.subscribe(List.of("dp.samples"));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (records.isEmpty() && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(500)).forEach(records::add);
      }
    }
    assertEquals(1, records.size(), "records on dp.samples");
    assertEquals(modelId, records.get(0).key());
    Sample sample = DpSerdes.sample().decodeOrThrow(records.get(0).value());
    assertEquals(0.27, sample.getLabel(), new String(records.get(0).value(), StandardCharsets.UTF_8));
  }

  private static int run(List<String> command, Path directory) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
        .redirectOutput(directory.resolve("python.log").toFile()).start();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      return -1;
    }
    return process.exitValue();
  }
}
