package org.dpstream.service.it;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.service.config.ModelConfig;

/**
 * A reproducible linear-regression stream over several models, interleaved in a random order (the
 * service must keep each model's order, whatever the mix). Features are uniform in [-1, 1]^d scaled
 * so most, not all, samples are within the declared norm bound: the clipped path runs too.
 */
final class SyntheticStream {

  private SyntheticStream() {}

  /** {@code perModel} samples for each model, interleaved; the same seed gives the same stream. */
  static List<SampleRow> generate(List<ModelConfig> models, int perModel, long seed) {
    UniformRandomProvider random = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    Map<String, Integer> remaining = new LinkedHashMap<>();
    Map<String, double[]> truth = new LinkedHashMap<>();
    for (ModelConfig model : models) {
      remaining.put(model.id(), perModel);
      truth.put(model.id(), uniform(random, model.dimension(), 0.5));
    }
    List<String> open = new ArrayList<>(remaining.keySet());
    List<SampleRow> rows = new ArrayList<>(perModel * models.size());
    while (!open.isEmpty()) {
      String modelId = open.get(random.nextInt(open.size()));
      double[] weights = truth.get(modelId);
      double[] features = uniform(random, weights.length, 1.0 / Math.sqrt(weights.length));
      double label = 0.1 * (2 * random.nextDouble() - 1);
      for (int i = 0; i < weights.length; i++) {
        label += weights[i] * features[i];
      }
      rows.add(new SampleRow(modelId, features, label));
      if (remaining.merge(modelId, -1, Integer::sum) == 0) {
        open.remove(modelId);
      }
    }
    return rows;
  }

  private static double[] uniform(UniformRandomProvider random, int dimension, double scale) {
    double[] values = new double[dimension];
    for (int i = 0; i < dimension; i++) {
      values[i] = scale * (2 * random.nextDouble() - 1);
    }
    return values;
  }
}
