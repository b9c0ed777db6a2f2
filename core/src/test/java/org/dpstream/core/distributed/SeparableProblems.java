package org.dpstream.core.distributed;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.erm.ErmDataset;
import org.dpstream.core.erm.FeatureBounds;

/** Small linearly separable problems with unit-norm rows (so L = 1), for the DP-DDA tests. */
final class SeparableProblems {

  private SeparableProblems() {}

  /** N samples in R^m, labels sign(&lt;w*, x&gt;), samples with |&lt;w*, x&gt;| &lt; margin rejected. */
  static ErmDataset unitNormSeparable(int samples, int dimension, double margin, long seed) {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    ZigguratSampler.NormalizedGaussian gaussian = ZigguratSampler.NormalizedGaussian.of(rng);
    double[] truth = unit(gaussian, dimension);
    double[][] rows = new double[samples][];
    double[] labels = new double[samples];
    int k = 0;
    while (k < samples) {
      double[] x = unit(gaussian, dimension);
      double score = 0;
      for (int j = 0; j < dimension; j++) {
        score += truth[j] * x[j];
      }
      if (Math.abs(score) >= margin) {
        rows[k] = x;
        labels[k] = score > 0 ? 1 : -1;
        k++;
      }
    }
    return ErmDataset.of(rows, labels, FeatureBounds.uniform(dimension, 1.0));
  }

  private static double[] unit(ZigguratSampler.NormalizedGaussian gaussian, int dimension) {
    double[] x = new double[dimension];
    double norm = 0;
    for (int j = 0; j < dimension; j++) {
      x[j] = gaussian.sample();
      norm += x[j] * x[j];
    }
    norm = Math.sqrt(norm);
    for (int j = 0; j < dimension; j++) {
      x[j] /= norm;
    }
    return x;
  }
}
