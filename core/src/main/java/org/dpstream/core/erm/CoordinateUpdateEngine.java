package org.dpstream.core.erm;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpstream.core.privacy.noise.VectorNoise;
import org.dpstream.core.privacy.random.NoiseStream;

/**
 * The loop shared by DP-CD and DP-SkGD-BS (Algorithm 1 of both papers), for GLM data-fit losses:
 *
 * <pre>
 * for t = 0..T-1:  theta^0 = w^t
 *   for k = 0..K-1:
 *     draw a block S = A_u with probability q_u
 *     for j in S (all from the same theta^k, i.e. a Jacobi block update):
 *       g_j = (1/n) sum_i clip_j(x_ij clip_R(zeta(x_i' theta) - y_i))
 *       theta_j &lt;- prox_{gamma_j psi_j}(theta_j - gamma_j (g_j + eta_j)),  eta_j ~ N(0, sigma_j^2)
 *   w^{t+1} = (1/K) sum_{k=1..K} theta^k   (with averaging; else the last iterate is kept)
 * </pre>
 *
 * DP-CD clips per sample and per coordinate (clip_j = truncation to [-C_j, C_j], no residual clip);
 * DP-SkGD clips the per-sample residual to [-R, R], which bounds ||I_U grad l_i||_2 &lt;= R ||b_U||_2 = L_U
 * for every block at once. With gamma_j = p_j / M_j and the sketch C = I_S P^-1 of DP-SkGD, Gamma C =
 * M^-1 I_S, so both methods step 1/M_j on the sampled coordinates.
 *
 * <p>Cost: O(n + n |S|) per update (margins x_i' theta are kept up to date), O(n d) per restart from an
 * average; averages are accumulated lazily in O(|S|) per update. Nothing is allocated per update; one
 * pair of bit providers is created per pass (selection at index 0, noise at index 1 of epoch = pass).
 */
final class CoordinateUpdateEngine {

  private static final long SELECTION_INDEX = 0;
  private static final long NOISE_INDEX = 1;

  /**
   * Everything public a run needs; arrays indexed by coordinate. {@code unitNoise} (dimension 1) is drawn
   * once per updated coordinate and scaled by its sigma_j: a standard Gaussian for a private run, {@link
   * org.dpstream.core.privacy.noise.ConstantVectorNoise#zero} in the non-private mode (NOT PRIVATE).
   */
  record Plan(ErmDataset data, CompositeObjective objective, BlockSampling sampling, double[] stepSizes,
      double[] noiseSigma, VectorNoise unitNoise, double[] coordinateClip, double residualClip,
      LoopSchedule schedule, long updatesPerPass, double[] initialWeights) {

    Plan {
      if (unitNoise.dimension() != 1) {
        throw new IllegalArgumentException("coordinate noise is drawn one coordinate at a time");
      }
    }
  }

  /** The released model and the per-pass snapshots (index 0 = w^0). */
  record Outcome(double[] finalWeights, List<double[]> passWeights, long updates) {}

  private final Plan plan;
  private final ErmDataset data;
  private final Regularizer regularizer;
  private final double[] labels;
  private final int n;
  private final double[] theta;
  private final double[] margins;
  private final double[] residuals;
  private final double[] blockGradient;
  private final double[] averageSum;
  private final long[] lastCounted;
  private final double[] released;
  private final double[] draw = new double[1];

  private CoordinateUpdateEngine(Plan plan) {
    this.plan = plan;
    this.data = plan.data();
    this.regularizer = plan.objective().regularizer();
    this.labels = data.labelsView();
    this.n = data.size();
    int d = data.dimension();
    this.theta = plan.initialWeights().clone();
    this.margins = new double[n];
    this.residuals = new double[n];
    this.blockGradient = new double[plan.sampling().partition().maxBlockSize()];
    this.averageSum = new double[d];
    this.lastCounted = new long[d];
    this.released = theta.clone();
  }

  static Outcome run(Plan plan, NoiseStream bits, PassListener listener) {
    return new CoordinateUpdateEngine(plan).run(bits, listener);
  }

  private Outcome run(NoiseStream bits, PassListener listener) {
    LoopSchedule schedule = plan.schedule();
    List<double[]> snapshots = new ArrayList<>();
    snapshots.add(theta.clone());
    long updatesPerPass = plan.updatesPerPass();
    long update = 0;
    int pass = 0;
    UniformRandomProvider selection = null;
    UniformRandomProvider noiseBits = null;
    data.margins(theta, margins);
    for (long t = 0; t < schedule.outerIterations(); t++) {
      startEpoch();
      for (long k = 1; k <= schedule.innerIterations(); k++) {
        if (update % updatesPerPass == 0) {
          selection = bits.at(pass, SELECTION_INDEX);
          noiseBits = bits.at(pass, NOISE_INDEX);
        }
        step(plan.sampling().sampleBlock(selection), k, noiseBits);
        update++;
        boolean endOfEpoch = k == schedule.innerIterations();
        if (endOfEpoch && schedule.averaging()) {
          restartFromAverage(schedule.innerIterations());
        }
        if (update % updatesPerPass == 0 || update == schedule.totalUpdates()) {
          pass++;
          double[] current = schedule.averaging() ? released.clone() : theta.clone();
          snapshots.add(current);
          listener.onPass(pass, current.clone());
        }
      }
    }
    double[] output = schedule.averaging() ? released.clone() : theta.clone();
    return new Outcome(output, snapshots, update);
  }

  private void startEpoch() {
    Arrays.fill(averageSum, 0);
    Arrays.fill(lastCounted, 0);
  }

  /** One update of block u; k in 1..K is the index of the iterate theta^k it produces. */
  private void step(int u, long k, UniformRandomProvider noiseBits) {
    int[] block = plan.sampling().partition().blockView(u);
    CompositeObjective objective = plan.objective();
    double residualClip = plan.residualClip();
    for (int i = 0; i < n; i++) {
      double residual = objective.residual(margins[i], labels[i]);
      residuals[i] = Math.max(-residualClip, Math.min(residualClip, residual));
    }
    for (int t = 0; t < block.length; t++) {
      blockGradient[t] = clippedMeanPartial(block[t]);
    }
    for (int t = 0; t < block.length; t++) {
      int j = block[t];
      plan.unitNoise().sample(noiseBits, draw);
      double noisy = blockGradient[t] + plan.noiseSigma()[j] * draw[0];
      double gamma = plan.stepSizes()[j];
      double updated = regularizer.prox(theta[j] - gamma * noisy, gamma);
      double change = updated - theta[j];
      if (change != 0) {
        // theta_j held its old value for iterates lastCounted+1 .. k-1.
        averageSum[j] += theta[j] * (k - 1 - lastCounted[j]);
        lastCounted[j] = k - 1;
        theta[j] = updated;
        double[] column = data.columnView(j);
        for (int i = 0; i < n; i++) {
          margins[i] += change * column[i];
        }
      }
    }
  }

  /** (1/n) sum_i clip_j(x_ij r_i) with the clipped residuals r_i. */
  private double clippedMeanPartial(int j) {
    double[] column = data.columnView(j);
    double clip = plan.coordinateClip()[j];
    double sum = 0;
    if (clip == Double.POSITIVE_INFINITY) {
      for (int i = 0; i < n; i++) {
        sum += column[i] * residuals[i];
      }
    } else {
      for (int i = 0; i < n; i++) {
        sum += Math.max(-clip, Math.min(clip, column[i] * residuals[i]));
      }
    }
    return sum / n;
  }

  /** w^{t+1} = (1/K) sum_{k=1..K} theta^k; theta and the margins restart there. */
  private void restartFromAverage(long innerIterations) {
    for (int j = 0; j < theta.length; j++) {
      averageSum[j] += theta[j] * (innerIterations - lastCounted[j]);
      theta[j] = averageSum[j] / innerIterations;
      released[j] = theta[j];
    }
    data.margins(theta, margins);
  }
}
