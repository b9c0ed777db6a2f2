package org.dpstream.bench.e2e;

import java.util.ArrayList;
import java.util.List;
import org.dpstream.service.config.ModelConfig;

/**
 * The benchmark's models: squared loss over the geometries the service supports, cycled (p = 1.5,
 * inf, 1, 2), each releasing every step, with a horizon covering its share of the stream so the
 * tree depth is that of one epoch over all of it.
 */
final class BenchModels {

  private static final String[] GEOMETRIES = {"1.5", "inf", "1", "2"};

  private BenchModels() {}

  static List<ModelConfig> of(int models, int dimension, long samples) {
    long horizon = Math.max(1, (samples + models - 1) / models);
    List<ModelConfig> configs = new ArrayList<>(models);
    for (int m = 0; m < models; m++) {
      configs.add(new ModelConfig(id(m), dimension, "squared", GEOMETRIES[m % GEOMETRIES.length], 1, 1, 1e-5,
          horizon, 1, 1.5, null, null, "auto", 1));
    }
    return configs;
  }

  static String id(int model) {
    return "bench-m" + model;
  }
}
