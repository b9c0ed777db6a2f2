package org.dpstream.core.erm.training;

import org.dpstream.core.erm.BatchQuantileClipping;

/**
 * The defaults of {@code train} on a user's file, shared with the bench's {@code erm --data csv:FILE} so
 * that the bench reports what users get. Chosen by reasoning about features scaled to [-1, 1], and the clip
 * quantile on selection data sets outside the reported tables (docs/results.md, "How the defaults were
 * chosen"), never on the reported data sets:
 * <ul>
 *   <li>features divided by their declared bounds; the model reported in original units;
 *   <li>lambda = 1/n (l2), delta = 1/n^2, 30 passes, step scale 1 (steps 1/M_j, 1/beta from the scaled
 *       bounds: the largest steps the smoothness bounds guarantee to converge with);
 *   <li>the tight zCDP conversion (valid for every epsilon);
 *   <li>DP-SGD: adaptive clipping (to the {@link #CLIP_QUANTILE} quantile of the gradient norms), expected batch max(10, sqrt(n)),
 *       and its guarantee stated for replace-one adjacency like the other algorithms'.
 * </ul>
 */
public final class TrainDefaults {

  /** DP-SGD's target quantile of the gradient norms for adaptive clipping. */
  public static final double CLIP_QUANTILE = BatchQuantileClipping.DEFAULT_TARGET_QUANTILE;

  /** Passes over the data. */
  public static final int PASSES = 30;
  /** Step multiplier s. */
  public static final double STEP_SCALE = 1.0;

  private TrainDefaults() {}

  /** lambda = 1/n. */
  public static double lambda(int n) {
    return 1.0 / n;
  }

  /** delta = 1/n^2. */
  public static double delta(int n) {
    return 1.0 / ((double) n * n);
  }

  /**
   * DP-SGD's expected batch max(10, floor(sqrt(n))): the DP-CD paper's 10 for small n; for larger n, sqrt(n)
   * steps per pass. In the amplified regime the gradient's signal-to-noise ratio hardly depends on the
   * batch, while the noisy count of adaptive clipping is relatively less noisy in larger batches.
   */
  public static double batchSize(int n) {
    return Math.max(10, Math.floor(Math.sqrt(n)));
  }

  /** Every default for {@code algorithm} on n training records at this epsilon. */
  public static ErmSettings settings(String algorithm, ErmSettings.Loss loss, ErmSettings.Reg reg, int n,
      double epsilon) {
    return new ErmSettings(algorithm, loss, reg, lambda(n), 0.5, epsilon, delta(n), PASSES, Double.NaN,
        loss == ErmSettings.Loss.SQUARED ? 1.0 : Double.NaN, STEP_SCALE, true, ErmSettings.Accountant.TIGHT, true,
        batchSize(n), true);
  }
}
