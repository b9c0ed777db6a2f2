package org.dpstream.bench.jmh;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKey;

/** The benchmarks' fixed inputs: a keyed noise source and bandit samples, each a function of a public seed. */
final class BenchmarkInputs {

  private BenchmarkInputs() {}

  /** A keyed noise source whose key is drawn from {@code seed} (a benchmark's key: public, never for data). */
  static KeyedNoiseSource keyedSource(long seed) {
    byte[] material = new byte[NoiseKey.MINIMUM_BYTES];
    RandomSource.SPLIT_MIX_64.create(seed).nextBytes(material);
    return new KeyedNoiseSource(NoiseKey.ofBytes(material));
  }

  /** Contexts of unit inf-norm (as the bandits' data bounds declare) and rewards uniform in [-1, 1). */
  record BanditSamples(double[][] contexts, double[] rewards) {}

  /** {@code samples} contexts of {@code dimension} and their rewards, drawn from {@code seed}. */
  static BanditSamples banditSamples(long seed, int samples, int dimension) {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    double[][] contexts = new double[samples][dimension];
    double[] rewards = new double[samples];
    for (int s = 0; s < samples; s++) {
      double largest = 0;
      for (int j = 0; j < dimension; j++) {
        contexts[s][j] = rng.nextDouble() * 2 - 1;
        largest = Math.max(largest, Math.abs(contexts[s][j]));
      }
      for (int j = 0; j < dimension; j++) {
        contexts[s][j] /= largest;
      }
      rewards[s] = rng.nextDouble() * 2 - 1;
    }
    return new BanditSamples(contexts, rewards);
  }
}
