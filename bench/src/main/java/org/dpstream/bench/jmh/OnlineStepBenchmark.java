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
 * (report-noisy-min over 2d vertices), DP-TOFW otherwise (two gradients, clipping, prefix-sum step, LMO).
 * By default the service's defaults: accountant {@code auto}, discrete noise, adaptive clipping (the worst case at
 * p = 1), here over epochs of 10^4 steps (auto then takes the exact BLT; past about 10^6 steps an epoch's exact
 * BLT needs too coarse a lattice and auto takes the tree: -p horizon=1048576).
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
  @Param({"discrete"})
  public String noise;

  /**
   * adaptive or worst-case DP-TOFW clipping (-p clip=worst-case,adaptive -p p=1.5); p = 1 always runs the worst
   * case. Adaptive blocks open, histograms are released and epochs start during the measurement, as in service.
   */
  @Param({"adaptive"})
  public String clip;

  /** The epoch's length n (the worst case's epochs never end within a measurement at 2^40). */
  @Param({"10000"})
  public long horizon;

  private OnlineEstimator estimator;
  private double[][] features;
  private double[] labels;
  private int next;

  @Setup
  public void setUp() {
    double exponent = p.equals("inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(p);
    LpNorm dual = LpNorm.of(LpNorm.dualExponent(exponent));
    boolean adaptive = clip.equals("adaptive") && exponent > 1;
    OnlineModelSpec spec = OnlineModelSpec.withDerivedClipping("bench", dimension, GlmLoss.squared(),
        LpBall.of(exponent, 2), new PrivacyBudget(1, 1e-6), horizon,
        new DataBounds(1, 2), AccountantChoice.valueOf(accountant.toUpperCase(Locale.ROOT)))
        .withNoise(NoiseChoice.valueOf(noise.toUpperCase(Locale.ROOT)))
        .withIncrementClipping(adaptive ? IncrementClipping.ADAPTIVE : IncrementClipping.WORST_CASE);
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
