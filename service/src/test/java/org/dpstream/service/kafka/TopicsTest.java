package org.dpstream.service.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.dpstream.schemas.DenseFeatures;
import org.dpstream.schemas.Sample;
import org.junit.jupiter.api.Test;

class TopicsTest {

  @Test
  void defaultNamesAreTheArchitecturesDpTopics() {
    List<String> names = Topics.defaults().all().stream().map(Topic::name).toList();
    assertEquals(List.of("dp.samples", "dp.releases", "dp.rejected", "dp.contexts", "dp.decisions",
        "dp.rewards", "dp.contexts.decided"), names);
  }

  @Test
  void namesAreConfigurable() {
    TopicNames names = new TopicNames("s", "r", "x", "c", "d", "w");
    Topics topics = new Topics(names);
    assertEquals("s", topics.samples().name());
    assertEquals("w", topics.rewards().name());
  }

  @Test
  void topicsPairTheirNameWithTheSerdeOfTheirRecords() {
    Topic<String, Sample> samples = Topics.defaults().samples();
    Sample sample = new Sample(new DenseFeatures(List.of(1.0)), 0.0, null, null);
    byte[] bytes = samples.valueSerde().serializer().serialize(samples.name(), sample);
    assertEquals(sample, samples.valueSerde().deserializer().deserialize(samples.name(), bytes));
  }

  @Test
  void namesMustBeDistinctAndNonBlank() {
    assertThrows(IllegalArgumentException.class, () -> new TopicNames("a", "a", "x", "c", "d", "w"));
    assertThrows(IllegalArgumentException.class, () -> new TopicNames("a", " ", "x", "c", "d", "w"));
  }

  @Test
  void specsShareOnePartitionCountAndSetNoTopicConfig() {
    Topics topics = Topics.defaults();
    List<TopicSpec> specs = topics.specs(3);
    assertEquals(7, specs.size());
    for (TopicSpec spec : specs) {
      assertEquals(3, spec.partitions());
      assertEquals(Map.of(), spec.configs(), spec.name());
    }
  }

  @Test
  void topicSpecValidatesAndCopiesItsConfigs() {
    assertThrows(IllegalArgumentException.class, () -> TopicSpec.of("t", 0));
    TopicSpec spec = TopicSpec.of("t", 1).withConfig("retention.ms", "1000");
    assertThrows(UnsupportedOperationException.class, () -> spec.configs().put("x", "y"));
    assertEquals("1000", spec.withConfig("x", "y").configs().get("retention.ms"));
  }
}
