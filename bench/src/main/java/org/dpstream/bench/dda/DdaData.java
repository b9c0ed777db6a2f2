package org.dpstream.bench.dda;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.PermutationSampler;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.data.FashionMnist;
import org.dpstream.core.data.FashionMnistBinary;
import org.dpstream.core.data.LabelledData;
import org.dpstream.core.erm.ErmDataset;
import org.dpstream.core.erm.FeatureBounds;

/**
 * Training and test sets of the dda experiments, binary with labels -1/+1 and rows of unit l2 norm, so the
 * hinge loss is 1-Lipschitz as in the paper's data sets (epsilon and rcv1 are row-normalised). Normalising is a per-record public map, so the declared L = 1 holds by construction.
 *
 * @param train training samples, shuffled by the seed (the paper assigns samples to nodes at random)
 * @param test held-out samples for accuracy
 */
record DdaData(ErmDataset train, ErmDataset test) {

  /**
   * Fashion-MNIST, two classes: {@code positive} gets +1, {@code negative} -1; pixels / 255, then each image
   * scaled to unit norm. The paper's Section 5 trains binary linear SVMs; Fashion-MNIST replaces its
   * epsilon/rcv1 sets, which are not packaged here.
   */
  static DdaData fashionMnist(Path directory, int positive, int negative, long seed) throws IOException {
    return new DdaData(
        shuffled(binary(FashionMnistBinary.load(directory, FashionMnist.Split.TRAIN, negative, positive)), seed),
        binary(FashionMnistBinary.load(directory, FashionMnist.Split.TEST, negative, positive)));
  }

  /** Labels 0/1 become -1/+1; each row (pixels / 255) is scaled to unit norm. */
  private static ErmDataset binary(LabelledData images) {
    double[][] rows = new double[images.size()][];
    double[] labels = new double[images.size()];
    for (int k = 0; k < images.size(); k++) {
      rows[k] = normalised(images.row(k));
      labels[k] = images.label(k) == 1 ? 1.0 : -1.0;
    }
    return ErmDataset.of(rows, labels, FeatureBounds.uniform(images.dimension(), 1.0));
  }

  /**
   * A synthetic linear-SVM task: Gaussian directions normalised to the unit sphere in R^m, labels
   * sign(&lt;w*, x&gt;) with a fraction {@code flip} flipped (so it is not separable and the regulariser matters).
   */
  static DdaData synthetic(int trainSize, int testSize, int dimension, double flip, long seed) {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    ZigguratSampler.NormalizedGaussian gaussian = ZigguratSampler.NormalizedGaussian.of(rng);
    double[] truth = normalised(gaussianVector(gaussian, dimension));
    return new DdaData(sample(trainSize, truth, flip, gaussian, rng), sample(testSize, truth, flip, gaussian, rng));
  }

  private static ErmDataset sample(int size, double[] truth, double flip, ZigguratSampler.NormalizedGaussian gaussian,
      UniformRandomProvider rng) {
    double[][] rows = new double[size][];
    double[] labels = new double[size];
    for (int i = 0; i < size; i++) {
      rows[i] = normalised(gaussianVector(gaussian, truth.length));
      double score = 0;
      for (int j = 0; j < truth.length; j++) {
        score += truth[j] * rows[i][j];
      }
      labels[i] = (score >= 0 ? 1 : -1) * (rng.nextDouble() < flip ? -1 : 1);
    }
    return ErmDataset.of(rows, labels, FeatureBounds.uniform(truth.length, 1.0));
  }

  private static double[] gaussianVector(ZigguratSampler.NormalizedGaussian gaussian, int dimension) {
    double[] x = new double[dimension];
    for (int j = 0; j < dimension; j++) {
      x[j] = gaussian.sample();
    }
    return x;
  }

  private static double[] normalised(double[] x) {
    double norm = 0;
    for (double v : x) {
      norm += v * v;
    }
    if (norm == 0) {
      return x;
    }
    double scale = 1 / Math.sqrt(norm);
    for (int j = 0; j < x.length; j++) {
      x[j] *= scale;
    }
    return x;
  }

  /** The rows in a seed-dependent random order. */
  private static ErmDataset shuffled(ErmDataset data, long seed) {
    int[] order = PermutationSampler.natural(data.size());
    PermutationSampler.shuffle(RandomSource.XO_RO_SHI_RO_128_PP.create(seed), order);
    double[][] rows = new double[data.size()][];
    double[] labels = new double[data.size()];
    for (int k = 0; k < order.length; k++) {
      rows[k] = data.row(order[k]);
      labels[k] = data.label(order[k]);
    }
    return ErmDataset.of(rows, labels, data.bounds());
  }
}
