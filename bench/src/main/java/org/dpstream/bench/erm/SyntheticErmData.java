package org.dpstream.bench.erm;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.data.LabelledData;
import org.dpstream.core.erm.training.ErmSettings;

/**
 * The synthetic data of Mangold et al. (2022, hal-03424974 v1) section 5, as we read it. Stated by the paper: n = 10,000 records, p = 100 features drawn i.i.d. from a standard Gaussian;
 * "balanced" keeps them, "unbalanced" rescales the features so that the coordinate smoothness constants
 * follow a lognormal distribution; logistic labels are +-1 by a fixed threshold of a linear predictor,
 * then flipped independently with probability 0.2; LASSO / regression labels are a linear predictor plus
 * small Gaussian noise. The paper leaves the rest open; the reading followed here:
 *
 * <ul>
 *   <li>column j is multiplied by sqrt(s_j), s_j = exp(tau g_j), g_j ~ N(0, 1), tau = 1 (unbalanced) or
 *       s_j = 1 (balanced), so M_j = k (1/n)||X_:j||^2 is about k s_j: lognormal;
 *   <li>w_true ~ N(0, I_p); labels computed from the final (rescaled) X; logistic threshold 0, labels
 *       mapped to {0, 1} for the core's logistic loss; regression noise N(0, 0.1^2);
 *   <li><b>deviation</b>: the core needs public bounds |x_ij| &lt;= b_j, which Gaussian features do not
 *       have, so the standard Gaussian is truncated to [-{@value #TRUNCATION}, {@value #TRUNCATION}]
 *       (rejection: a 0.27% tail) and b_j = {@value #TRUNCATION} sqrt(s_j), known from the generator, not
 *       measured on the data.
 * </ul>
 *
 * The held-out test set is drawn from the same distribution with the same s and w_true.
 */
final class SyntheticErmData {

  static final double TRUNCATION = 3.0;
  static final double LOGNORMAL_TAU = 1.0;
  static final double FLIP_PROBABILITY = 0.2;
  static final double REGRESSION_NOISE = 0.1;

  /** Training and test sets with their public bounds. */
  record Generated(LabelledData train, LabelledData test, double[] bounds, double[] scales) {}

  private SyntheticErmData() {}

  static Generated generate(boolean unbalanced, ErmSettings.Loss loss, int n, int p, int testSize, long seed) {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    ZigguratSampler.NormalizedGaussian gaussian = ZigguratSampler.NormalizedGaussian.of(rng);
    double[] scales = new double[p];
    double[] bounds = new double[p];
    double[] wTrue = new double[p];
    for (int j = 0; j < p; j++) {
      scales[j] = unbalanced ? Math.exp(LOGNORMAL_TAU * gaussian.sample()) : 1.0;
      bounds[j] = TRUNCATION * Math.sqrt(scales[j]);
      wTrue[j] = gaussian.sample();
    }
    LabelledData train = draw(rng, gaussian, scales, wTrue, loss, n);
    LabelledData test = draw(rng, gaussian, scales, wTrue, loss, testSize);
    return new Generated(train, test, bounds, scales);
  }

  private static LabelledData draw(UniformRandomProvider rng, ZigguratSampler.NormalizedGaussian gaussian,
      double[] scales, double[] wTrue, ErmSettings.Loss loss, int n) {
    int p = scales.length;
    double[][] x = new double[n][p];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      double margin = 0;
      for (int j = 0; j < p; j++) {
        double z;
        do {
          z = gaussian.sample();
        } while (Math.abs(z) > TRUNCATION);
        x[i][j] = Math.sqrt(scales[j]) * z;
        margin += x[i][j] * wTrue[j];
      }
      if (loss == ErmSettings.Loss.LOGISTIC) {
        boolean positive = margin > 0;
        if (rng.nextDouble() < FLIP_PROBABILITY) {
          positive = !positive;
        }
        y[i] = positive ? 1 : 0;
      } else {
        y[i] = margin + REGRESSION_NOISE * gaussian.sample();
      }
    }
    return LabelledData.of(x, y);
  }
}
