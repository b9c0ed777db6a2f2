package org.dpstream.demo;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.dpstream.schemas.ModelRelease;

/** What the demo has seen on dp.releases and dp.rejected, per model; thread-safe. */
final class StreamProgress {

  private final Map<String, ModelProgress> models = new LinkedHashMap<>();
  /** Rejections under keys that name no model of the demo, by key, then reason. */
  private final Map<String, Map<String, Long>> otherRejections = new TreeMap<>();

  StreamProgress(List<ModelProgress> models) {
    models.forEach(m -> this.models.put(m.model().id(), m));
  }

  Collection<ModelProgress> models() {
    return models.values();
  }

  void released(ModelRelease release) {
    ModelProgress model = models.get(release.getModelId());
    if (model != null) {
      model.released(release);
    }
  }

  void rejected(String key, String reason) {
    ModelProgress model = key == null ? null : models.get(key);
    if (model != null) {
      model.rejected(reason);
      return;
    }
    synchronized (otherRejections) {
      otherRejections.computeIfAbsent(String.valueOf(key), k -> new TreeMap<>()).merge(reason, 1L, Long::sum);
    }
  }

  Map<String, Map<String, Long>> otherRejections() {
    synchronized (otherRejections) {
      Map<String, Map<String, Long>> copy = new TreeMap<>();
      otherRejections.forEach((key, reasons) -> copy.put(key, Map.copyOf(reasons)));
      return copy;
    }
  }

  long totalSteps() {
    return models.values().stream().mapToLong(m -> m.snapshot().step()).sum();
  }

  long totalRejected() {
    long others;
    synchronized (otherRejections) {
      others = otherRejections.values().stream().flatMap(r -> r.values().stream()).mapToLong(Long::longValue).sum();
    }
    return others + models.values().stream().mapToLong(ModelProgress::rejected).sum();
  }

  /**
   * Whether every sample and bad record that was sent has come out as a release or a rejection: a model's valid
   * samples as steps or, per person, as rejections over the bound; the bad records as the other rejections.
   */
  boolean accountsFor(SampleProducer.Sent sent) {
    long overTheBound = 0;
    for (Map.Entry<String, Long> entry : sent.samplesPerModel().entrySet()) {
      ModelProgress model = models.get(entry.getKey());
      long bounded = model.overTheBound();
      overTheBound += bounded;
      if (model.snapshot().step() + bounded < entry.getValue()) {
        return false;
      }
    }
    return totalRejected() - overTheBound >= sent.malformed();
  }
}
