package org.dpstream.service.bandit;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.dpstream.schemas.BanditStepRelease;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.service.release.BanditStepReleases;
import org.dpstream.service.serde.DecodeResult;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.service.serde.SchemaSerde;

/**
 * dp.releases of a bandit topology read as per-arm releases, whichever format the bandit publishes: a step record
 * unfolds into the arms' and extras' releases it carries (each under its model id, with the step record's timestamp
 * and headers), a per-arm record is read as it is. So the tests that follow single arms hold for either format; the
 * step record itself is checked in {@link BanditStepReleaseTopologyTest}.
 */
final class ArmReleases {

  private final TestOutputTopic<String, byte[]> raw;
  private final SchemaSerde<ModelRelease> arms = DpSerdes.modelRelease();
  private final SchemaSerde<BanditStepRelease> steps = DpSerdes.banditStepRelease();

  ArmReleases(TopologyTestDriver driver, String topic) {
    this.raw = driver.createOutputTopic(topic, new StringDeserializer(), new ByteArrayDeserializer());
  }

  boolean isEmpty() {
    return raw.isEmpty();
  }

  List<ModelRelease> readValuesToList() {
    return readRecordsToList().stream().map(TestRecord::value).toList();
  }

  List<TestRecord<String, ModelRelease>> readRecordsToList() {
    List<TestRecord<String, ModelRelease>> records = new ArrayList<>();
    for (TestRecord<String, byte[]> record : raw.readRecordsToList()) {
      if (arms.decode(record.value()) instanceof DecodeResult.Decoded<ModelRelease> arm) {
        records.add(new TestRecord<>(record.key(), arm.value(), record.headers(), record.timestamp()));
      } else {
        for (ModelRelease release : BanditStepReleases.armReleases(steps.decodeOrThrow(record.value()))) {
          records.add(new TestRecord<>(release.getModelId(), release, record.headers(), record.timestamp()));
        }
      }
    }
    return records;
  }
}
