package org.dpstream.bandit.hdb;

import java.io.DataInput;
import java.io.DataOutput;
import org.dpstream.core.online.EstimatorFactory;
import org.dpstream.core.online.OnlineEstimator;
import org.dpstream.core.online.OnlineModelSpec;
import org.dpstream.core.online.StepOutcome;
import org.dpstream.core.privacy.accounting.PrivacyLedger;
import org.dpstream.core.privacy.accounting.ReportNoisyMaxCalibration;
import org.dpstream.core.privacy.noise.LaplaceVectorNoise;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseStream;

/**
 * A test arm: the recursion of DP-POFW (d_k = (1/(k+1)) sum g_i, g = grad f(theta_t) + k (grad
 * f(theta_t) - grad f(theta_{t-1})), step 1/(t+1) towards the chosen vertex of the l1 ball) with
 * <em>no clipping</em>, in two flavours:
 *
 * <ul>
 *   <li>{@link #NOISE_OFF}: exact Frank-Wolfe, for the regret test. When d = 0 every point of the
 *       ball minimises the linear model, and the arm stays where it is (a valid LMO answer); DP-POFW's
 *       noise would pick a random vertex instead.
 *   <li>{@link #CALIBRATED_NOISE_WITHOUT_CLIPPING}: DP-POFW's Laplace report-noisy-min scale, but
 *       unclipped increments: the privacy audit must catch it.
 * </ul>
 *
 * <p>One epoch only (tests stay within the horizon); no state; the ledger is a placeholder.
 */
final class UnclippedFrankWolfeArm implements OnlineEstimator {

  static final EstimatorFactory NOISE_OFF = factory(false);
  static final EstimatorFactory CALIBRATED_NOISE_WITHOUT_CLIPPING = factory(true);

  private final OnlineModelSpec spec;
  private final ReportNoisyMaxCalibration calibration;
  private final NoiseStream noiseBits;
  private final LaplaceVectorNoise unitLaplace;
  private final double[] incrementSum;
  private final double[] gradient;
  private final double[] previousGradient;
  private final double[] vertexNoise;
  private double[] current;
  private double[] previous;
  private long steps;

  private UnclippedFrankWolfeArm(OnlineModelSpec spec, KeyedNoiseSource source, boolean noisy) {
    this.spec = spec;
    int d = spec.dimension();
    double diameter = spec.domain().diameter();
    this.calibration = noisy ? ReportNoisyMaxCalibration.of(spec.budget(), spec.horizon(), diameter,
        spec.clipBounds().difference() / diameter, spec.clipBounds().gradient()) : null;
    this.noiseBits = noisy ? source.forStream("report-noisy-max", spec.modelId()) : null;
    this.unitLaplace = new LaplaceVectorNoise(2 * d, 1.0);
    this.incrementSum = new double[d];
    this.gradient = new double[d];
    this.previousGradient = new double[d];
    this.vertexNoise = new double[2 * d];
    this.current = new double[d];
    this.previous = new double[d];
  }

  private static EstimatorFactory factory(boolean noisy) {
    return new EstimatorFactory() {
      @Override
      public OnlineEstimator start(OnlineModelSpec spec, KeyedNoiseSource source) {
        return new UnclippedFrankWolfeArm(spec, source, noisy);
      }

      @Override
      public OnlineEstimator restore(OnlineModelSpec spec, DataInput in, KeyedNoiseSource source) {
        throw new UnsupportedOperationException("test arm has no state format");
      }
    };
  }

  @Override
  public StepOutcome step(double[] features, double label) {
    long k = steps + 1;
    spec.loss().gradient(current, features, label, gradient);
    spec.loss().gradient(previous, features, label, previousGradient);
    for (int j = 0; j < incrementSum.length; j++) {
      incrementSum[j] += gradient[j] + k * (gradient[j] - previousGradient[j]);
    }
    if (calibration != null) {
      unitLaplace.sample(noiseBits.at(0, k), vertexNoise);
    }
    double scale = calibration == null ? 0 : calibration.laplaceScaleAt(k);
    double radius = spec.domain().radius();
    int bestCoordinate = -1;
    double bestValue = 0;
    double bestScore = calibration == null ? 0 : Double.POSITIVE_INFINITY; // noise off: a vertex only when d != 0
    for (int j = 0; j < incrementSum.length; j++) {
      double dj = incrementSum[j] / (k + 1);
      for (int s = 0; s < 2; s++) {
        double sign = s == 0 ? 1 : -1;
        double score = sign * radius * dj + scale * vertexNoise[2 * j + s];
        if (score < bestScore) {
          bestScore = score;
          bestCoordinate = j;
          bestValue = sign * radius;
        }
      }
    }
    double eta = 1.0 / (k + 1);
    double[] next = new double[current.length];
    for (int j = 0; j < next.length; j++) {
      double vertex = bestCoordinate < 0 ? current[j] : (j == bestCoordinate ? bestValue : 0);
      next[j] = current[j] + eta * (vertex - current[j]);
    }
    previous = current;
    current = next;
    steps = k;
    return new StepOutcome(k, 0, false, false);
  }

  @Override
  public OnlineModelSpec spec() {
    return spec;
  }

  @Override
  public long steps() {
    return steps;
  }

  @Override
  public long epoch() {
    return 0;
  }

  @Override
  public double[] parameters() {
    return current.clone();
  }

  @Override
  public PrivacyLedger ledger() {
    return PrivacyLedger.open(spec.budget(), "test-unclipped", spec.horizon());
  }

  @Override
  public String mechanism() {
    return calibration == null ? "exact-frank-wolfe" : "unclipped-report-noisy-min";
  }

  @Override
  public void writeState(DataOutput out) {
    throw new UnsupportedOperationException("test arm has no state format");
  }
}
