package org.dpstream.core.erm;

import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import org.dpstream.core.privacy.random.KeyedNoiseSource;

/**
 * DP-CD: differentially private proximal coordinate descent, Algorithm 1 of P. Mangold, A. Bellet, J.
 * Salmon, M. Tommasi, "Differentially Private Coordinate Descent for Composite Empirical Risk
 * Minimization" (HAL hal-03424974 v1, 2021; ICML 2022).
 *
 * <p><b>Update</b> (Section 2 / Algorithm 1 with the clipping of Section 3.2): pick j uniformly from [d],
 * compute the clipped partial derivative g_j = (1/n) sum_i clip(grad_j l(theta; d_i), C_j), where clip
 * truncates to [-C_j, C_j], and set theta_j &lt;- prox_{gamma_j psi_j}(theta_j - gamma_j (g_j + eta_j)),
 * eta_j ~ N(0, sigma_j^2), gamma_j = s / M_j (theory s = 1; {@link ErmOptions#stepScale}). M_j is the
 * public coordinate smoothness of {@link CompositeObjective#coordinateSmoothness} (the paper uses the
 * data's (1/n)||X_:j||^2 and calls it public; we use its bound from declared feature ranges).
 *
 * <p><b>Clipping</b> ({@link ClippingRule}, Section 3.5): UNIFORM C_j = C / sqrt(d), SMOOTH C_j =
 * sqrt(M_j / tr M) C. Both give a clipped gradient of l2 sensitivity 2C, like DP-SGD with threshold C; they
 * coincide when all M_j are equal. Reading followed: Section 5 prints "sqrt(M_j / tr(M) C)"; we follow
 * Section 3.5, with C outside the root.
 *
 * <p><b>Privacy</b> (Theorem 1): T K updates, each a Gaussian mechanism on a query of sensitivity 2 C_j / n
 * (replace-one adjacency: Lemma 2(2) prints L_j, its proof and eq. (2) give 2 L_j; we follow the proof),
 * sigma_j^2 = 12 C_j^2 T K ln(1/delta) / (n^2 epsilon^2), via {@link GaussianCompositionCalibration} with
 * {@link ErmOptions#zcdpRule} (default: the paper's closed form; tighter zCDP conversions optional).
 * That calibration is the run's privacy map: the whole run reserves its cost in a {@link
 * org.dpstream.core.privacy.accounting.PrivacyLedger} before the first noise draw ({@link ErmRun#ledger}); the
 * non-private mode ({@link ErmProblem#nonPrivate}) adds zeros (NOT PRIVATE).
 *
 * <p><b>Loops</b>: T K = passes x d. With {@link ErmOptions#averaging}, T = passes and K = d with the
 * periodic averaging of Algorithm 1; without, the last iterate (what the paper's experiments report).
 * The privacy cost is the same.
 */
public final class DpCd implements ErmAlgorithm {

  /** The per-coordinate clipping thresholds C_j of Section 3.5. */
  public enum ClippingRule {
    /** C_j = C / sqrt(d): the clipped gradient vector has l2 norm at most C. */
    UNIFORM,
    /** C_j = sqrt(M_j / tr M) C: makes the M^-1-sensitivity of the rescaled problem 2C. */
    SMOOTH;

    /** The thresholds C_j for a global C and smoothness constants M. */
    public double[] thresholds(double clipNorm, double[] smoothness) {
      double[] c = new double[smoothness.length];
      if (this == UNIFORM) {
        Arrays.fill(c, clipNorm / Math.sqrt(smoothness.length));
        return c;
      }
      double trace = 0;
      for (double m : smoothness) {
        trace += m;
      }
      for (int j = 0; j < c.length; j++) {
        c[j] = Math.sqrt(smoothness[j] / trace) * clipNorm;
      }
      return c;
    }
  }

  static final String PURPOSE = "erm-dpcd";

  private final ClippingRule rule;

  public DpCd(ClippingRule rule) {
    this.rule = Objects.requireNonNull(rule, "rule");
  }

  public ClippingRule rule() {
    return rule;
  }

  @Override
  public String name() {
    return "dpcd-" + rule.name().toLowerCase(Locale.ROOT);
  }

  @Override
  public ErmRun train(ErmProblem problem, KeyedNoiseSource source, String runId, PassListener listener) {
    int d = problem.dataset().dimension();
    double[] smoothness = problem.objective().coordinateSmoothness(problem.dataset().bounds());
    LoopSchedule schedule = LoopSchedule.ofPasses(problem.passes(), d, problem.options().averaging());
    double[] clips = clipThresholds(problem, smoothness);
    CoordinateRun run = CoordinateRun.open(problem, schedule, j -> clips[j]);
    BlockSampling coordinates = BlockSampling.uniform(BlockPartition.contiguous(d, d));
    return run.train(name(), coordinates, smoothness, clips, Double.POSITIVE_INFINITY, d,
        source.forStream(PURPOSE, runId), listener, describe(problem, schedule, clips, run));
  }

  private double[] clipThresholds(ErmProblem problem, double[] smoothness) {
    double clipNorm = problem.options().clipNorm();
    if (Double.isNaN(clipNorm)) {
      if (problem.isPrivate()) {
        throw new IllegalArgumentException(name() + " needs ErmOptions.clipNorm for a private run");
      }
      double[] none = new double[smoothness.length];
      Arrays.fill(none, Double.POSITIVE_INFINITY);
      return none;
    }
    return rule.thresholds(clipNorm, smoothness);
  }

  private String describe(ErmProblem problem, LoopSchedule schedule, double[] clips, CoordinateRun run) {
    return String.format(Locale.ROOT,
        "%s: proximal coordinate descent (Mangold et al. 2022, Alg. 1), %s clipping C=%s, C_j in [%.4g, %.4g],"
            + " steps %s/M_j, %s, %d passes; ",
        name(), rule.name().toLowerCase(Locale.ROOT), problem.options().clipNorm(), CoordinateRun.min(clips),
        CoordinateRun.max(clips), problem.options().stepScale(), schedule, problem.passes())
        + run.describeNoise();
  }
}
