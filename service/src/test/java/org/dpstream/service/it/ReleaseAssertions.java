package org.dpstream.service.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.dpstream.schemas.ModelRelease;

/** Checks committed releases against the crash-free reference, naming the first thing that differs. */
final class ReleaseAssertions {

  private ReleaseAssertions() {}

  /**
   * Every expected release of every model is committed exactly once, keyed by its model, in step
   * order within the model, and equal bit for bit to the reference; nothing else is committed.
   */
  static void assertReleasesMatchReference(Map<String, List<ReleaseFacts>> expected,
      List<ConsumerRecord<String, ModelRelease>> committed) {
    Map<String, List<ReleaseFacts>> published = new LinkedHashMap<>();
    for (ConsumerRecord<String, ModelRelease> record : committed) {
      String modelId = record.value().getModelId();
      if (!Objects.equals(record.key(), modelId)) {
        fail("release of " + modelId + " keyed " + record.key() + " at " + record.partition() + "/" + record.offset());
      }
      published.computeIfAbsent(modelId, id -> new ArrayList<>()).add(ReleaseFacts.of(record.value()));
    }
    assertEquals(expected.keySet(), published.keySet(), "models with releases");
    for (Map.Entry<String, List<ReleaseFacts>> model : expected.entrySet()) {
      assertModelMatches(model.getKey(), model.getValue(), published.get(model.getKey()));
    }
  }

  private static void assertModelMatches(String modelId, List<ReleaseFacts> expected, List<ReleaseFacts> published) {
    Map<Long, Integer> timesPublished = new TreeMap<>();
    published.forEach(release -> timesPublished.merge(release.step(), 1, Integer::sum));
    List<Long> duplicated = timesPublished.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey).toList();
    if (!duplicated.isEmpty()) {
      fail(modelId + ": steps released more than once (a sample counted twice or a release replayed): "
          + abbreviate(duplicated));
    }
    List<Long> expectedSteps = expected.stream().map(ReleaseFacts::step).toList();
    List<Long> missing = expectedSteps.stream().filter(step -> !timesPublished.containsKey(step)).toList();
    if (!missing.isEmpty()) {
      fail(modelId + ": " + missing.size() + " steps never released (samples lost): " + abbreviate(missing));
    }
    assertEquals(expectedSteps, published.stream().map(ReleaseFacts::step).toList(),
        modelId + ": released steps, in the order committed");
    for (int i = 0; i < expected.size(); i++) {
      assertEquals(expected.get(i), published.get(i), modelId + ": release of step " + expected.get(i).step()
          + " differs from the estimator run directly in core");
    }
  }

  private static String abbreviate(List<Long> steps) {
    return steps.size() <= 20 ? steps.toString() : steps.subList(0, 20) + " ... (" + steps.size() + " in all)";
  }
}
