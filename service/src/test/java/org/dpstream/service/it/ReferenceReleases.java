package org.dpstream.service.it;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.dpstream.core.online.OnlineEstimator;
import org.dpstream.core.online.OnlineEstimators;
import org.dpstream.core.online.StepOutcome;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.service.config.ModelConfig;

/**
 * The releases a crash-free service must publish: each model's estimator run directly in core over
 * that model's samples in the order they were produced (a model's samples share a key, hence a
 * routing partition, whose order Kafka keeps as long as each producer writes a model's samples to one
 * input partition), with the same noise key and the model's placement.
 */
final class ReferenceReleases {

  private ReferenceReleases() {}

  /** Per model id, the expected releases in step order (every k-th step for releaseEvery k). */
  static Map<String, List<ReleaseFacts>> of(List<ModelConfig> models, List<SampleRow> producedInOrder) {
    return of(models, producedInOrder, ItModels::noiseOf);
  }

  /** The same, each model's noise from {@code noiseOf} (e.g. a key that hands over to another after an epoch). */
  static Map<String, List<ReleaseFacts>> of(List<ModelConfig> models, List<SampleRow> producedInOrder,
      Function<String, KeyedNoiseSource> noiseOf) {
    Map<String, OnlineEstimator> estimators = new LinkedHashMap<>();
    Map<String, Integer> releaseEvery = new LinkedHashMap<>();
    Map<String, List<ReleaseFacts>> expected = new LinkedHashMap<>();
    for (ModelConfig model : models) {
      estimators.put(model.id(), OnlineEstimators.start(model.toSpec(), noiseOf.apply(model.id())));
      releaseEvery.put(model.id(), model.releaseEvery());
      expected.put(model.id(), new ArrayList<>());
    }
    for (SampleRow row : producedInOrder) {
      OnlineEstimator estimator = estimators.get(row.modelId());
      StepOutcome outcome = estimator.step(row.features().clone(), row.label());
      if (outcome.step() % releaseEvery.get(row.modelId()) == 0) {
        expected.get(row.modelId()).add(ReleaseFacts.of(estimator, outcome));
      }
    }
    return expected;
  }

  static int count(Map<String, List<ReleaseFacts>> expected) {
    return expected.values().stream().mapToInt(List::size).sum();
  }
}
