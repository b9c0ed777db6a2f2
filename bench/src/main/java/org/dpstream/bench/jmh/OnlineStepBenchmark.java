package org.dpstream.bench.jmh;

import java.util.Locale;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.geometry.LpBall;
import org.dpstream.core.geometry.LpNorm;
import org.dpstream.core.loss.DataBounds;
import org.dpstream.core.loss.GlmLoss;
import org.dpstream.core.online.AccountantChoice;
import org.dpstream.core.online.OnlineEstimator;
import org.dpstream.core.online.OnlineEstimators;
import org.dpstream.core.online.NoiseChoice;
import org.dpstream.core.online.IncrementClipping;
import org.dpstream.core.online.OnlineModelSpec;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * One private step of the online estimator on one core, keyed cryptographic noise: DP-POFW for p = 1
 * (report-noisy-min over 2d vertices), DP-TOFW otherwise (two gradients, clipping, tree step, LMO).
 * The accountant is {@code auto} and the noise continuous by default, as a user would run it.
 */
public class OnlineStepBenchmark extends ThroughputBenchmark {

  private static final int SAMPLES = 1024;

  @Param({"5", "20", "100", "1000"})
  public int dimension;

  @Param({"1", "1.5", "2", "inf"})
  public String p;

  /** auto, zcdp, blt or paper (try -p accountant=zcdp for the calibration noise: discrete uses; zcdp,blt for the ratio). */
  @Param({"auto"})
  public String accountant;

  /**
   * continuous or discrete (run -p noise=continuous,discrete; at p = 1 discrete is DP-POFW's exact exponential
   * mechanism on lattice scores, elsewhere the discrete Gaussian tree, which needs accountant auto or zcdp).
   */
  @Param({"continuous"})
  public String noise;

  /**
   * worst-case or adaptive DP-TOFW clipping (-p clip=worst-case,adaptive -p p=1.5). Adaptive runs epochs of
   * 2^20 steps: its blocks then open and its histograms are released during the measurement, as in service.
   */
  @Param({"worst-case"})
  public String clip;

  private OnlineEstimator estimator;
  private double[][] features;
  private double[] labels;
  private int next;

  @Setup
  public void setUp() {
    double exponent = p.equals("inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(p);
    LpNorm dual = LpNorm.of(LpNorm.dualExponent(exponent));
    // A horizon no run reaches, so epochs never change during measurement.
    OnlineModelSpec spec = OnlineModelSpec.withDerivedClipping("bench", dimension, GlmLoss.squared(),
        LpBall.of(exponent, 2), new PrivacyBudget(1, 1e-6), clip.equals("adaptive") ? 1L << 20 : 1L << 40,
        new DataBounds(1, 2), AccountantChoice.valueOf(accountant.toUpperCase(Locale.ROOT)))
        .withNoise(NoiseChoice.valueOf(noise.toUpperCase(Locale.ROOT)))
        .withIncrementClipping(clip.equals("adaptive") ? IncrementClipping.ADAPTIVE : IncrementClipping.WORST_CASE);
    estimator = OnlineEstimators.start(spec, BenchmarkInputs.keyedSource(4L));
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(5L);
    features = new double[SAMPLES][dimension];
    labels = new double[SAMPLES];
    for (int s = 0; s < SAMPLES; s++) {
      for (int i = 0; i < dimension; i++) {
        features[s][i] = rng.nextDouble() - 0.5;
      }
      double norm = dual.valueOf(features[s]);
      for (int i = 0; i < dimension; i++) {
        features[s][i] /= norm; // unit dual norm, as declared in the data bounds
      }
      labels[s] = rng.nextDouble() * 2 - 1;
    }
  }

  @Benchmark
  public Object step() {
    int s = next++ & (SAMPLES - 1);
    return estimator.step(features[s], labels[s]);
  }
}
