package org.dpstream.service.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
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
 * About 30% malformed records of every kind, mixed into a valid stream: the service keeps running,
 * rejects each bad record once with its reason and original bytes, and learns the valid ones exactly
 * as if the bad ones had never been sent.
 */
@Timeout(150)
class MalformedBurstIT {

  private static final int VALID_PER_MODEL = 150;
  private static final double MALFORMED_FRACTION = 0.3;

  @RegisterExtension
  static final KafkaHarness kafka = KafkaHarness.perClass();

  /** A record as produced, with the reason it must be rejected for (null: valid). */
  private record Produced(KafkaHarness.RawRecord record, String expectedReason) {}

  /** Where a record landed in the samples topic; a rejected record names it. */
  private record Position(int partition, long offset) {}

  @Test
  void malformedRecordsAreRejectedWithTheirBytesAndTheValidOnesLearnedAsIfAlone(@TempDir Path stateDir) {
    List<ModelConfig> models = ItModels.models(1);
    ServiceConfig config = ItModels.serviceConfig("malformed", models, kafka.bootstrapServers(), stateDir.toString());
    Topics topics = kafka.createTopics(config.topics());
    List<SampleRow> valid = SyntheticStream.generate(models, VALID_PER_MODEL, 7L);
    List<Produced> stream = mixIn(valid, RandomSource.XO_RO_SHI_RO_128_PP.create(8L));
    int malformed = stream.size() - valid.size();

    try (InProcessService service = new InProcessService(config);
        CommittedTopicReader<ModelRelease> releases = kafka.releasesReader(topics);
        CommittedTopicReader<RejectedRecord> rejected = kafka.rejectedReader(topics)) {
      List<RecordMetadata> acks = kafka.produce(topics.samples().name(), stream.stream().map(Produced::record).toList());
      Map<Position, Produced> byPosition = new HashMap<>();
      for (int i = 0; i < acks.size(); i++) {
        byPosition.put(new Position(acks.get(i).partition(), acks.get(i).offset()), stream.get(i));
      }

      releases.awaitAtLeast(valid.size(), Duration.ofSeconds(90), service::isUp, service::describe);
      rejected.awaitAtLeast(malformed, Duration.ofSeconds(30), service::isUp, service::describe);
      releases.readFor(Duration.ofSeconds(1));
      rejected.poll();

      assertEquals(valid.size(), releases.count(), "releases = valid samples (every model releases every step)");
      assertEquals(malformed, rejected.count(), "rejected = malformed records");
      assertEquals(stream.size(), releases.count() + rejected.count(), "valid + rejected = produced");
      ReleaseAssertions.assertReleasesMatchReference(ReferenceReleases.of(models, valid), releases.records());
      for (ConsumerRecord<String, RejectedRecord> record : rejected.records()) {
        assertRejectionOf(byPosition, topics.samples().name(), record.value());
      }
      assertEquals(KafkaStreams.State.RUNNING, service.service.state(), "the service keeps running");
      assertEquals(malformed, service.counterSum("dpstream.samples.rejected"), "rejected (metric)");
      assertEquals(valid.size(), service.counterSum("dpstream.samples.processed"), "processed (metric)");
    }
  }

  private static void assertRejectionOf(Map<Position, Produced> byPosition, String samplesTopic,
      RejectedRecord rejection) {
    assertEquals(samplesTopic, rejection.getSourceTopic());
    Produced produced = byPosition.get(new Position(rejection.getSourcePartition(), rejection.getSourceOffset()));
    String where = rejection.getSourcePartition() + "/" + rejection.getSourceOffset();
    assertNotNull(produced, "rejected record points at no produced record: " + where);
    assertNotNull(produced.expectedReason(), "a valid sample was rejected at " + where + ": " + rejection.getMessage());
    assertEquals(produced.expectedReason(), rejection.getReason(), where + ": " + rejection.getMessage());
    assertArrayEquals(produced.record().value(), bytes(rejection.getOriginalValue()), where + ": original value");
    assertArrayEquals(produced.record().key(), bytes(rejection.getOriginalKey()), where + ": original key");
  }

  /**
   * Inserts malformed records at random places, about {@link #MALFORMED_FRACTION} of the result,
   * cycling through every kind; each is a corruption of some valid sample.
   */
  private static List<Produced> mixIn(List<SampleRow> valid, UniformRandomProvider random) {
    MalformedRecords[] kinds = MalformedRecords.values();
    List<Produced> stream = new ArrayList<>();
    int nextKind = 0;
    for (SampleRow row : valid) {
      while (random.nextDouble() < MALFORMED_FRACTION) {
        SampleRow template = valid.get(random.nextInt(valid.size()));
        MalformedRecords kind = kinds[nextKind++ % kinds.length];
        stream.add(new Produced(kind.corrupt(template, random), kind.reason()));
      }
      stream.add(new Produced(new KafkaHarness.RawRecord(row.key(), row.avro()), null));
    }
    return stream;
  }

  private static byte[] bytes(ByteBuffer buffer) {
    if (buffer == null) {
      return null;
    }
    byte[] out = new byte[buffer.remaining()];
    buffer.duplicate().get(out);
    return out;
  }
}
