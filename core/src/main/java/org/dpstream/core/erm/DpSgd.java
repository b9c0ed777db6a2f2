package org.dpstream.core.erm;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleUnaryOperator;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpstream.core.erm.privacy.SubsampledGaussianCalibration;
import org.dpstream.core.privacy.accounting.PrivacyLedger;
import org.dpstream.core.privacy.accounting.Rounding;
import org.dpstream.core.privacy.noise.ConstantVectorNoise;
import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.dpstream.core.privacy.noise.VectorNoise;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseStream;

/**
 * The DP-SGD baseline of the DP-CD paper's experiments (Mangold et al. 2022, Section 5; Abadi et al. 2016),
 * made concrete as follows:
 *
 * <pre>
 * for s = 1..S:                       S = passes x round(1/q)
 *   B = Poisson sample: each record independently with probability q (default q = 10/n)
 *   G = sum_{i in B} clip(grad l(w; d_i), C)       l2 clipping, eq. (6)
 *   w &lt;- prox_{gamma psi}(w - gamma (G + N(0, (z C)^2 I)) / (q n))
 * </pre>
 *
 * Dividing by the expected batch size q n, not the realised |B| (which is private), keeps the noisy sum's
 * sensitivity C. gamma = s / beta with beta = k sum_j b_j^2 the public l2 smoothness of f ({@link
 * CompositeObjective#globalSmoothness}), s = {@link ErmOptions#stepScale}; a constant step, as the paper's
 * grid search over a step implies. The prox handles l1 / elastic net (proximal SGD); the paper does not
 * say whether its LASSO DP-SGD was proximal.
 *
 * <p><b>Privacy.</b> z is the smallest noise multiplier whose {@link SubsampledGaussianRdp} accountant
 * (Poisson-subsampled Gaussian, add/remove adjacency, integer orders, {@link ErmOptions#rdpConversion})
 * keeps S steps within the budget, found by bisection and rounded to the safe side. Adjacency is
 * add/remove, the relation that accountant is proved for; DP-CD and DP-SkGD use replace-one. The sampled
 * indices come from the keyed source, so they stay secret, as amplification by subsampling requires. The run
 * reserves its whole cost in a {@link PrivacyLedger} ({@link SubsampledGaussianCalibration}, the privacy map)
 * before it draws any noise; {@link ErmProblem#nonPrivate} runs add zeros instead (NOT PRIVATE).
 *
 * <p><b>Adaptive clipping</b> ({@link ErmOptions#quantileClipping}, {@link BatchQuantileClipping}): C starts
 * at {@link ErmOptions#clipNorm} and follows a quantile of the per-example gradient norms through a noisy
 * count released with every step; the pair is one subsampled Gaussian of multiplier z (gradient noise
 * z / sqrt(1 - s) C_t), so the accountant above is unchanged.
 *
 * <p><b>Up to k records</b> ({@link ErmProblem#maxContributions}): z is calibrated for add/remove of up to k
 * records by {@link SubsampledGaussianCalibration#forGroup} (the gradient-and-count pair of k records has norm at
 * most k times one record's, so the same bound covers adaptive clipping).
 */
public final class DpSgd implements ErmAlgorithm {

  static final String PURPOSE = "erm-dpsgd";
  private static final long SELECTION_INDEX = 0;
  private static final long NOISE_INDEX = 1;
  private static final long COUNT_NOISE_INDEX = 2;
  /** The DP-CD paper's minibatch size, the default expected batch. */
  static final double DEFAULT_EXPECTED_BATCH = 10;

  @Override
  public String name() {
    return "dpsgd";
  }

  /** Add/remove: the relation its subsampled-Gaussian accountant is proved for. */
  @Override
  public Adjacency adjacency() {
    return Adjacency.ADD_REMOVE;
  }

  @Override
  public ErmRun train(ErmProblem problem, KeyedNoiseSource source, String runId, PassListener listener) {
    ErmDataset data = problem.dataset();
    ErmOptions options = problem.options();
    int n = data.size();
    double rate = Double.isNaN(options.batchRate())
        ? Math.min(1.0, DEFAULT_EXPECTED_BATCH / n)
        : options.batchRate();
    long updatesPerPass = Math.max(1, Math.round(1 / rate));
    long updates = Math.multiplyExact((long) problem.passes(), updatesPerPass);
    double clip = options.clipNorm();
    if (Double.isNaN(clip)) {
      if (problem.isPrivate()) {
        throw new IllegalArgumentException("dpsgd needs ErmOptions.clipNorm for a private run");
      }
      clip = Double.POSITIVE_INFINITY;
    }
    BatchQuantileClipping quantile = options.quantileClipping();
    if (quantile != null && Double.isInfinite(clip)) {
      throw new IllegalArgumentException("dpsgd: adaptive clipping needs an initial clipping threshold");
    }
    // The noise is a collaborator: unit Gaussians scaled per step for a private run, zeros in the explicit
    // non-private mode (NOT PRIVATE), so the loop never switches noise off.
    int d = data.dimension();
    SubsampledGaussianCalibration calibration = null;
    PrivacyLedger ledger = null;
    NoiseScales noise = NoiseScales.none(d);
    if (problem.isPrivate()) {
      calibration = SubsampledGaussianCalibration.forGroup(rate, updates, problem.budget(), options.rdpConversion(),
          problem.maxContributions());
      ledger = PrivacyLedger.forRun(calibration);
      double z = calibration.noiseMultiplier();
      noise = NoiseScales.gaussian(d,
          quantile == null ? z : Rounding.up(quantile.gradientNoiseMultiplier(z)),
          quantile == null ? 0 : Rounding.up(quantile.countNoiseStd(z)));
    }
    double step = options.stepScale() / problem.objective().globalSmoothness(data.bounds());
    Run run = new Run(problem, rate, clip, quantile, noise, step, options.initialWeights(d));
    List<double[]> snapshots = run.train(source.forStream(PURPOSE, runId), updatesPerPass, problem.passes(),
        listener);
    String description = String.format(Locale.ROOT,
        "dpsgd: Poisson-subsampled proximal SGD (Abadi et al. 2016), q=%.6g (expected batch %.4g),"
            + " l2 clip %s, step %s/beta=%.4g, %d steps over %d passes; %s; gradient noise std %.6g x clip%s",
        rate, rate * n,
        quantile == null ? "C=" + clip : String.format(Locale.ROOT, "C from %s to %.4g by %s", clip,
            run.clip, quantile.describe()),
        options.stepScale(), step, updates, problem.passes(),
        calibration == null ? "NON-PRIVATE (no noise)" : calibration.describe(),
        noise.gradientMultiplier(), quantile == null ? "" : String.format(Locale.ROOT, ", count noise std %.6g",
            noise.countStd()));
    return new ErmRun(name(), snapshots.get(snapshots.size() - 1), snapshots, ledger, updates, description);
  }

  /**
   * The noise of a run: unit draws for the gradient sum (d) and the centred count (1), and their scales. A
   * private run draws Gaussians with std z_g C_t per coordinate (z_g C_t rounded up) and sigma_b on the count;
   * the non-private mode ({@link #none}) adds zeros.
   */
  record NoiseScales(VectorNoise gradient, VectorNoise count, double gradientMultiplier, double countStd,
      DoubleUnaryOperator gradientStdAtClip) {

    static NoiseScales gaussian(int dimension, double gradientMultiplier, double countStd) {
      return new NoiseScales(IidVectorNoise.gaussian(dimension, 1.0), IidVectorNoise.gaussian(1, 1.0),
          gradientMultiplier, countStd, clip -> Rounding.up(gradientMultiplier * clip));
    }

    /** NOT PRIVATE: zeros, at any threshold (an unset clip is infinite). */
    static NoiseScales none(int dimension) {
      return new NoiseScales(ConstantVectorNoise.zero(dimension), ConstantVectorNoise.zero(1), 0, 0, clip -> 0);
    }

    /** The gradient noise std at threshold C: z_g C rounded up. */
    double gradientStd(double clip) {
      return gradientStdAtClip.applyAsDouble(clip);
    }
  }

  /** The state of one training run; allocated once. */
  private static final class Run {
    private final ErmDataset data;
    private final CompositeObjective objective;
    private final double rate;
    private final double logOneMinusRate;
    private final BatchQuantileClipping quantile;
    private final NoiseScales noise;
    private final double[] gradientDraws;
    private final double[] countDraw = new double[1];
    private final double initialClip;
    private double clip;
    private final double step;
    private final double expectedBatch;
    private final double[] weights;
    private final double[] clippedSum;
    private final double[] rowNorms;

    Run(ErmProblem problem, double rate, double clip, BatchQuantileClipping quantile, NoiseScales noise,
        double step, double[] initial) {
      this.data = problem.dataset();
      this.objective = problem.objective();
      this.rate = rate;
      this.logOneMinusRate = Math.log1p(-rate);
      this.clip = clip;
      this.initialClip = clip;
      this.quantile = quantile;
      this.noise = noise;
      this.gradientDraws = new double[problem.dataset().dimension()];
      this.step = step;
      this.expectedBatch = rate * data.size();
      this.weights = initial;
      this.clippedSum = new double[data.dimension()];
      this.rowNorms = new double[data.size()];
      for (int i = 0; i < rowNorms.length; i++) {
        double[] row = data.rowView(i);
        double squared = 0;
        for (double x : row) {
          squared += x * x;
        }
        rowNorms[i] = Math.sqrt(squared);
      }
    }

    List<double[]> train(NoiseStream bits, long updatesPerPass, int passes, PassListener listener) {
      List<double[]> snapshots = new ArrayList<>(passes + 1);
      snapshots.add(weights.clone());
      for (int pass = 0; pass < passes; pass++) {
        UniformRandomProvider selection = bits.at(pass, SELECTION_INDEX);
        UniformRandomProvider gradientBits = bits.at(pass, NOISE_INDEX);
        UniformRandomProvider countBits = bits.at(pass, COUNT_NOISE_INDEX);
        for (long s = 0; s < updatesPerPass; s++) {
          step(selection, gradientBits, countBits);
        }
        snapshots.add(weights.clone());
        listener.onPass(pass + 1, weights.clone());
      }
      return snapshots;
    }

    private void step(UniformRandomProvider selection, UniformRandomProvider gradientBits,
        UniformRandomProvider countBits) {
      Arrays.fill(clippedSum, 0);
      int n = data.size();
      double centredCount = 0;
      for (long i = nextSampled(-1, selection); i < n; i = nextSampled(i, selection)) {
        int index = (int) i;
        double residual = objective.residual(data.margin(index, weights), data.label(index));
        double norm = Math.abs(residual) * rowNorms[index];
        centredCount += norm <= clip ? 0.5 : -0.5;
        double coefficient = norm > clip ? residual * (clip / norm) : residual;
        double[] row = data.rowView(index);
        for (int j = 0; j < row.length; j++) {
          clippedSum[j] += coefficient * row[j];
        }
      }
      double noiseStd = noise.gradientStd(clip);
      noise.gradient().sample(gradientBits, gradientDraws);
      for (int j = 0; j < weights.length; j++) {
        double noisySum = clippedSum[j] + noiseStd * gradientDraws[j];
        weights[j] = objective.regularizer().prox(weights[j] - step * noisySum / expectedBatch, step);
      }
      if (quantile != null) {
        noise.count().sample(countBits, countDraw);
        double noisyCount = centredCount + noise.countStd() * countDraw[0];
        clip = quantile.nextClip(clip, BatchQuantileClipping.unclippedFraction(noisyCount, expectedBatch), initialClip);
      }
    }

    /**
     * The next index after {@code previous} in a Poisson sample of rate q: the gaps of a Bernoulli(q)
     * process are geometric, 1 + floor(ln U / ln(1 - q)), so a step costs O(q n) draws, not n.
     */
    private long nextSampled(long previous, UniformRandomProvider selection) {
      if (rate == 1) {
        return previous + 1;
      }
      double uniform = 1 - selection.nextDouble(); // in (0, 1]
      double skip = Math.floor(Math.log(uniform) / logOneMinusRate);
      return skip >= data.size() ? data.size() : previous + 1 + (long) skip;
    }
  }
}
