package org.dpstream.service.docs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.dpstream.schemas.DecidedRequest;
import org.dpstream.schemas.DecisionRequest;
import org.dpstream.schemas.DecisionResponse;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.PrivacyLedger;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.schemas.Reward;
import org.dpstream.schemas.Sample;
import org.dpstream.service.bandit.BanditRejection;
import org.dpstream.service.kafka.TopicNames;
import org.dpstream.service.noise.StateRefusal;
import org.dpstream.service.serde.RejectReason;
import org.dpstream.service.testing.RepositoryFiles;
import org.dpstream.service.topology.SampleRejection;
import org.junit.jupiter.api.Test;

/**
 * docs/topics-and-schemas.md lists every topic the service uses, every field of every record of those topics, and
 * every reason code the service writes to dp.rejected; the README's overview names every topic too. A topic, field
 * or code added to the code without its line in the reference fails here.
 */
class TopicDocsTest {

  private static String reference() throws IOException {
    return Files.readString(RepositoryFiles.root().resolve("docs/topics-and-schemas.md"));
  }

  @Test
  void everyTopicIsInTheTopicTableAndInTheReadme() throws IOException {
    String reference = reference();
    String readme = Files.readString(RepositoryFiles.root().resolve("README.md"));
    TopicNames topics = TopicNames.defaults();
    for (String topic : List.of(topics.samples(), topics.releases(), topics.rejected(), topics.contexts(),
        topics.decisions(), topics.rewards(), topics.decided())) {
      assertTrue(reference.contains("| `" + topic + "` |"), "docs/topics-and-schemas.md: no row for " + topic);
      assertTrue(readme.contains("`" + topic + "`"), "README.md does not name " + topic);
    }
  }

  @Test
  void everyRejectionCodeIsExplained() throws IOException {
    String reference = reference();
    List<String> missing = new ArrayList<>();
    Stream.of(RejectReason.values(), SampleRejection.values(), BanditRejection.values(), StateRefusal.values())
        .flatMap(Stream::of)
        .map(Enum::name)
        .distinct()
        .filter(code -> !reference.contains("`" + code + "`"))
        .forEach(missing::add);
    assertTrue(missing.isEmpty(), "docs/topics-and-schemas.md, \"Rejection reasons\", lacks " + missing);
  }

  /** Each record's section (its "### Name" heading up to the next heading) names every field of its schema. */
  @Test
  void everyFieldOfEveryRecordIsDescribedInItsSection() throws IOException {
    String reference = reference();
    List<String> missing = new ArrayList<>();
    for (Schema schema : List.of(Sample.getClassSchema(), ModelRelease.getClassSchema(),
        PrivacyLedger.getClassSchema(), RejectedRecord.getClassSchema(), DecisionRequest.getClassSchema(),
        DecisionResponse.getClassSchema(), Reward.getClassSchema(), DecidedRequest.getClassSchema())) {
      String section = section(reference, schema.getName());
      for (Schema.Field field : schema.getFields()) {
        if (!section.contains("`" + field.name() + "`")) {
          missing.add(schema.getName() + "." + field.name());
        }
      }
    }
    assertTrue(missing.isEmpty(), "docs/topics-and-schemas.md describes no " + missing);
  }

  private static String section(String document, String record) {
    int start = document.indexOf("\n### " + record + "\n");
    assertTrue(start >= 0, "docs/topics-and-schemas.md has no section ### " + record);
    int end = document.indexOf("\n#", start + 1);
    return document.substring(start, end < 0 ? document.length() : end);
  }
}
