package org.dpstream.bandit.env;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.data.LabelledImages;

/**
 * A labelled image data set as a K-armed contextual bandit, the standard way contextual-bandit
 * libraries are evaluated on classification data (e.g. Vowpal Wabbit's and Open Bandit's supervised-to-
 * bandit conversion; Dudik, Langford and Li 2011): each round draws an image uniformly at random (with
 * replacement), the arms are the classes, and the reward is 1 when the chosen arm is the true class, 0
 * otherwise, without noise. The regret of a round is then 1 - reward (the optimal policy always names
 * the true class) and the optimal-choice rate is the accuracy of the chosen arms.
 *
 * <p>Context: pixels scaled to [0, 1], optionally averaged over {@code pool x pool} blocks (to make
 * O(d^3) policies affordable), then divided by their maximum so the context has unit l_inf norm like
 * the synthetic environment's (an all-black image stays zero). d = (rows / pool) (columns / pool).
 */
public final class ClassificationEnvironment implements BanditEnvironment {

  private static final double MAX_PIXEL = 255.0;

  private final String name;
  private final LabelledImages data;
  private final int pool;
  private final int pooledRows;
  private final int pooledColumns;
  private final UniformRandomProvider random;

  /**
   * @param name for reports, e.g. {@code fashion-mnist}
   * @param pool the side of the averaged pixel blocks; must divide rows and columns (1: raw pixels)
   * @param seed determines the sequence of images drawn
   */
  public ClassificationEnvironment(String name, LabelledImages data, int pool, long seed) {
    if (pool < 1 || data.rows() % pool != 0 || data.columns() % pool != 0) {
      throw new IllegalArgumentException("pool " + pool + " must be >= 1 and divide the image size "
          + data.rows() + "x" + data.columns());
    }
    if (data.classes() < 2) {
      throw new IllegalArgumentException("need at least 2 classes, got " + data.classes());
    }
    this.name = name;
    this.data = data;
    this.pool = pool;
    this.pooledRows = data.rows() / pool;
    this.pooledColumns = data.columns() / pool;
    this.random = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
  }

  @Override
  public int arms() {
    return data.classes();
  }

  @Override
  public int dimension() {
    return pooledRows * pooledColumns;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public EnvironmentBounds bounds() {
    // Unit l_inf contexts have ||x||_2 <= sqrt(d); rewards in {0, 1} (range [0, 1], midpoint 1/2) are
    // 1/2-sub-Gaussian about their mean.
    return new EnvironmentBounds(Math.sqrt(dimension()), 1.0, 0.5, 1.0, 0.5);
  }

  @Override
  public BanditRound nextRound() {
    int image = random.nextInt(data.count());
    double[] context = context(image);
    double[] rewards = new double[arms()];
    rewards[data.label(image)] = 1.0;
    return new BanditRound(context, rewards, rewards);
  }

  /** The context of one image: pooled [0, 1] pixels with unit l_inf norm (or all zero). */
  double[] context(int image) {
    double[] context = new double[dimension()];
    double largest = 0;
    for (int r = 0; r < pooledRows; r++) {
      for (int c = 0; c < pooledColumns; c++) {
        double sum = 0;
        for (int i = 0; i < pool; i++) {
          for (int j = 0; j < pool; j++) {
            sum += data.pixel(image, r * pool + i, c * pool + j);
          }
        }
        double value = sum / (pool * pool * MAX_PIXEL);
        context[r * pooledColumns + c] = value;
        largest = Math.max(largest, value);
      }
    }
    if (largest > 0) {
      for (int i = 0; i < context.length; i++) {
        context[i] /= largest;
      }
    }
    return context;
  }
}
