package org.dpstream.bench.ofw;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.NormalizedGaussianSampler;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.geometry.LpNorm;
import org.dpstream.core.loss.DataBounds;

/**
 * The synthetic linear regression of Han et al., section 5.2, as in the authors' code:
 *
 * <ul>
 *   <li>features x ~ N(0, 0.05^2 I_d), each normalised to unit q-norm (1/p + 1/q = 1);
 *   <li>theta* with its first min(5, d) entries 1 and the rest 0, normalised to unit p-norm (the
 *       paper's text draws theta* from N(0, 0.05^2 I) instead);
 *   <li>labels y = &lt;x, theta*&gt; + N(0, 0.05^2);
 *   <li>T training samples (the stream) and a separate test set (10000 in the paper).
 * </ul>
 *
 * <p>Other distributions, for settings outside the paper's (e.g. choosing a rule on data other than the data
 * reported): another label noise, and {@link Features#HEAVY} features, whose q-norm is not 1 but a heavy-tailed
 * radius r = min(1, |T_3| / 5) (T_3 Student's t with 3 degrees of freedom: median r 0.15, 1.5 % at the bound),
 * so that the increments' norms spread over a decade and more.
 *
 * <p>This is simulation randomness, not privacy noise: it comes from a seeded Commons RNG
 * generator ({@code XO_RO_SHI_RO_128_PP}). The test set is drawn first and the stream after it, so
 * for one seed and d the test set is the same for every T and the stream for a smaller T is a prefix
 * of the stream for a larger one; for every p the raw Gaussian draws are the same too (only the
 * normalisation differs).
 *
 * <p>Immutable by convention: the accessors return the internal arrays, which callers must not modify.
 */
public final class RegressionDataset {

  /** Standard deviation of the raw feature coordinates before normalisation. */
  public static final double FEATURE_SD = 0.05;
  /** Standard deviation of the label noise. */
  public static final double LABEL_NOISE_SD = 0.05;
  /** Number of leading ones in theta* before normalisation. */
  public static final int SUPPORT = 5;
  /** Radius of the constraint set, the lp ball (paper: 2). */
  public static final double RADIUS = 2.0;
  /** Size of the test set in the paper. */
  public static final int PAPER_TEST_SIZE = 10_000;

  /** How the features' q-norm is drawn. */
  public enum Features {
    /** The paper's: unit q-norm. */
    GAUSSIAN,
    /** q-norm min(1, |T_3| / 5), T_3 Student's t with 3 degrees of freedom. */
    HEAVY;

    /** {@code gaussian} or {@code heavy}, any case. */
    public static Features parse(String text) {
      return switch (text.strip().toLowerCase(java.util.Locale.ROOT)) {
        case "gaussian" -> GAUSSIAN;
        case "heavy" -> HEAVY;
        default -> throw new IllegalArgumentException("features must be gaussian or heavy, got '" + text + "'");
      };
    }
  }

  /** Divides |T_3| for the heavy features' radius. */
  static final double HEAVY_RADIUS_SCALE = 5;

  private final double p;
  private final double labelNoise;
  private final double[] thetaStar;
  private final double[][] trainFeatures;
  private final double[] trainLabels;
  private final double[][] testFeatures;
  private final double[] testLabels;

  private RegressionDataset(double p, double labelNoise, double[] thetaStar, double[][] trainFeatures,
      double[] trainLabels, double[][] testFeatures, double[] testLabels) {
    this.p = p;
    this.labelNoise = labelNoise;
    this.thetaStar = thetaStar;
    this.trainFeatures = trainFeatures;
    this.trainLabels = trainLabels;
    this.testFeatures = testFeatures;
    this.testLabels = testLabels;
  }

  /**
   * @param p exponent of the geometry, in [1, infinity]
   * @param d dimension, at least 1
   * @param trainSize T, at least 1
   * @param testSize size of the test set, at least 1
   * @param seed seed of the simulation generator
   */
  public static RegressionDataset generate(double p, int d, int trainSize, int testSize, long seed) {
    return generate(p, d, trainSize, testSize, seed, LABEL_NOISE_SD, Features.GAUSSIAN);
  }

  /**
   * @param labelNoise standard deviation of the label noise (the paper: 0.05)
   * @param features the features' law
   */
  public static RegressionDataset generate(double p, int d, int trainSize, int testSize, long seed, double labelNoise,
      Features features) {
    if (!(labelNoise >= 0) || Double.isInfinite(labelNoise)) {
      throw new IllegalArgumentException("label noise must be finite and >= 0, got " + labelNoise);
    }
    if (d < 1 || trainSize < 1 || testSize < 1) {
      throw new IllegalArgumentException(
          "d, T and the test size must be positive: d=" + d + ", T=" + trainSize + ", test=" + testSize);
    }
    LpNorm norm = LpNorm.of(p);
    LpNorm dual = norm.dual();
    double[] thetaStar = thetaStar(norm, d);
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    NormalizedGaussianSampler gaussian = ZigguratSampler.NormalizedGaussian.of(rng);
    double[][] testFeatures = new double[testSize][];
    double[] testLabels = new double[testSize];
    fill(gaussian, dual, thetaStar, testFeatures, testLabels, labelNoise, features);
    double[][] trainFeatures = new double[trainSize][];
    double[] trainLabels = new double[trainSize];
    fill(gaussian, dual, thetaStar, trainFeatures, trainLabels, labelNoise, features);
    return new RegressionDataset(p, labelNoise, thetaStar, trainFeatures, trainLabels, testFeatures, testLabels);
  }

  /** First min(5, d) entries 1, the rest 0, scaled to unit p-norm. */
  static double[] thetaStar(LpNorm norm, int d) {
    double[] theta = new double[d];
    for (int i = 0; i < Math.min(SUPPORT, d); i++) {
      theta[i] = 1.0;
    }
    double length = norm.valueOf(theta);
    for (int i = 0; i < d; i++) {
      theta[i] /= length;
    }
    return theta;
  }

  private static void fill(NormalizedGaussianSampler standard, LpNorm dual, double[] thetaStar, double[][] features,
      double[] labels, double labelNoise, Features law) {
    int d = thetaStar.length;
    for (int n = 0; n < features.length; n++) {
      double[] x = new double[d];
      double length;
      do {
        for (int i = 0; i < d; i++) {
          x[i] = FEATURE_SD * standard.sample();
        }
        length = dual.valueOf(x);
      } while (!(length > 0)); // probability zero; guards the division
      double radius = law == Features.HEAVY ? Math.min(1, Math.abs(studentT3(standard)) / HEAVY_RADIUS_SCALE) : 1;
      double margin = 0;
      for (int i = 0; i < d; i++) {
        x[i] = x[i] / length * radius;
        margin += x[i] * thetaStar[i];
      }
      features[n] = x;
      labels[n] = margin + labelNoise * standard.sample();
    }
  }

  /** Student's t with 3 degrees of freedom: Z / sqrt(chi^2_3 / 3). */
  private static double studentT3(NormalizedGaussianSampler standard) {
    double z = standard.sample();
    double chiSquare = 0;
    for (int k = 0; k < 3; k++) {
      double g = standard.sample();
      chiSquare += g * g;
    }
    return z / Math.sqrt(chiSquare / 3);
  }

  /**
   * The public bounds declared to the private algorithms; they are properties of the generator,
   * never measured on the samples. Features have unit q-norm by construction, so ||x||_q &lt;= 1.
   * Labels are unbounded in principle (Gaussian noise): |&lt;x, theta*&gt;| &lt;= ||x||_q ||theta*||_p
   * = 1 and the noise is within 5 standard deviations except with probability about 6e-7 per
   * sample, so we declare |y| &lt;= 1 + 5 * 0.05. The rare larger label does not weaken privacy: the
   * estimators clip every per-sample contribution to the bounds derived from this declaration, so
   * the sensitivity holds for any input; it only biases that one gradient a little.
   */
  public static DataBounds declaredBounds() {
    return declaredBounds(LABEL_NOISE_SD);
  }

  /** The declared bounds for a label noise of standard deviation {@code labelNoise}: |y| &lt;= 1 + 5 labelNoise. */
  public static DataBounds declaredBounds(double labelNoise) {
    return new DataBounds(1.0, 1.0 + 5 * labelNoise);
  }

  /** The bounds declared for this data set's generator. */
  public DataBounds bounds() {
    return declaredBounds(labelNoise);
  }

  public double p() {
    return p;
  }

  public int dimension() {
    return thetaStar.length;
  }

  public double[] thetaStar() {
    return thetaStar;
  }

  public double[][] trainFeatures() {
    return trainFeatures;
  }

  public double[] trainLabels() {
    return trainLabels;
  }

  public double[][] testFeatures() {
    return testFeatures;
  }

  public double[] testLabels() {
    return testLabels;
  }
}
