package org.dpstream.core.erm;

import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import org.dpstream.core.privacy.accounting.Rounding;
import org.dpstream.core.privacy.random.KeyedNoiseSource;

/**
 * DP-SkGD-BS: differentially private sketched gradient descent with block sampling, Algorithm 1 of A.
 * Maranjyan, A. Sadiev, P. Richtárik, "Differentially Private Random Block Coordinate Descent" (arXiv
 * 2412.17054), Sections 3-4.
 *
 * <p><b>Update.</b> The sketch C = I_S P^-1 (Definition 3.2) with S = A_u drawn with probability q_u
 * ({@link BlockSampling}), step sizes Gamma = P M^-1 of the theorems, so Gamma C = M^-1 I_S: every
 * coordinate of the sampled block takes the step 1/M_j (times {@link ErmOptions#stepScale}) along the noisy
 * full-batch partial derivative, all from the same iterate. eta ~ N(0, sigma_S^2 I): the paper prints
 * N(0, sigma_S I), but Theorem 4.1 calibrates sigma_U^2 and Lemma E.2 uses sigma_S as a standard deviation;
 * we follow the latter. Special cases: b = d with uniform q is DP-CD's update
 * and noise; b = 1 is full-batch noisy (preconditioned) gradient descent.
 *
 * <p><b>Constants, all public.</b> M_j is the block-restricted Gershgorin bound of {@link
 * CompositeObjective#blockSmoothness} (= k b_j^2 for singletons): the paper assumes global M-smoothness
 * (A3.6), but a block update only needs the block's Hessian below Diag(M), and this is the constant the
 * importance probabilities q_u proportional to max_{j in A_u} M_j use. L_U = R ||b_U||_2, where R bounds the
 * per-sample residual |zeta(x'w) - y| (Assumption 3.7 via Lemma C.1): R = 1 for the logistic loss, which is
 * then L_U-Lipschitz on every block as the paper assumes and the clip never binds; the squared loss is not
 * Lipschitz, so {@link ErmOptions#residualClip} must be given and the per-sample residual is clipped to it
 * (outside the paper's theory, as in DP-CD's experiments).
 *
 * <p><b>Privacy</b> (Theorem 4.1): sigma_U^2 = 12 L_U^2 K T ln(1/delta) / (n^2 epsilon^2) for every block U,
 * via {@link GaussianCompositionCalibration} (same noise multiplier for every block, so each of the K T
 * steps costs the same whichever block is drawn).
 * That calibration is the run's privacy map: the whole run reserves its cost in a {@link
 * org.dpstream.core.privacy.accounting.PrivacyLedger} before the first noise draw ({@link ErmRun#ledger}); the
 * non-private mode ({@link ErmProblem#nonPrivate}) adds zeros (NOT PRIVATE).
 *
 * <p><b>Loops</b> ({@link ErmOptions#loopRule}): by default T K = passes x round(d / E|S|) updates, with
 * averaging each pass if {@link ErmOptions#averaging}; or the K, T of Theorem 4.2 (convex: T = 1, K = n eps
 * R / (Sigma_S sqrt(ln 1/delta)); strongly convex: see {@link LoopSchedule#stronglyConvexTheorem}, whose
 * Javadoc shows that the paper's K = 2(1 + kappa) does not halve the gap and that K =
 * 2(2 kappa + 1) does; we default to the corrected K). With kappa = max_j(M_j / p_j) / mu, mu = the
 * regulariser's l2 weight, the only public strong-convexity modulus.
 *
 * <p><b>Extension.</b> The paper has no regulariser; we apply the separable prox of psi after the step
 * (psi = 0 gives the paper's algorithm exactly).
 */
public final class DpSkgd implements ErmAlgorithm {

  /** How blocks are drawn. */
  public enum Sampling {
    /** q_u = 1/b. */
    UNIFORM,
    /** q_u proportional to max_{j in A_u} M_j. */
    IMPORTANCE
  }

  static final String PURPOSE = "erm-dpskgd";

  private final Sampling sampling;

  public DpSkgd(Sampling sampling) {
    this.sampling = Objects.requireNonNull(sampling, "sampling");
  }

  public Sampling sampling() {
    return sampling;
  }

  @Override
  public String name() {
    return "dpskgd-" + sampling.name().toLowerCase(Locale.ROOT);
  }

  @Override
  public ErmRun train(ErmProblem problem, KeyedNoiseSource source, String runId, PassListener listener) {
    ErmDataset data = problem.dataset();
    ErmOptions options = problem.options();
    FeatureBounds bounds = data.bounds();
    int d = data.dimension();
    BlockPartition partition =
        BlockPartition.contiguous(d, options.blockCount() == 0 ? d : options.blockCount());
    double[] smoothness = problem.objective().blockSmoothness(bounds, partition);
    BlockSampling blocks = sampling == Sampling.UNIFORM
        ? BlockSampling.uniform(partition)
        : BlockSampling.importance(partition, smoothness);
    double residualClip = residualClip(problem);
    double[] coordinateClips = coordinateClips(problem, problem.objective().coordinateSmoothness(bounds));
    double[] blockLipschitz = blockSensitivityBounds(partition, bounds, residualClip, coordinateClips);
    long updatesPerPass = Math.max(1, Math.round(d / blocks.expectedBlockSize()));
    LoopSchedule schedule = schedule(problem, blocks, smoothness, blockLipschitz, updatesPerPass);
    CoordinateRun run = CoordinateRun.open(problem, schedule, j -> blockLipschitz[partition.blockOf(j)]);
    String description = String.format(Locale.ROOT,
        "%s: DP-SkGD-BS (Maranjyan et al., Alg. 1), b=%d blocks, %s sampling, residual clip R=%.4g,"
            + " L_U in [%.4g, %.4g], steps %s/M_j (block Gershgorin), %s; ",
        name(), partition.blockCount(), sampling.name().toLowerCase(Locale.ROOT), residualClip,
        CoordinateRun.min(blockLipschitz), CoordinateRun.max(blockLipschitz), options.stepScale(), schedule)
        + run.describeNoise();
    return run.train(name(), blocks, smoothness, coordinateClips, residualClip, updatesPerPass,
        source.forStream(PURPOSE, runId), listener, description);
  }

  /** Sigma_S^2 = E[L_S^2 sum_{j in S} 1/(p_j M_j)] = sum_j L_{B(j)}^2 / M_j for block sampling. */
  public static double sigmaSSquared(BlockPartition partition, double[] blockLipschitz, double[] smoothness) {
    double sum = 0;
    for (int j = 0; j < smoothness.length; j++) {
      double l = blockLipschitz[partition.blockOf(j)];
      sum += l * l / smoothness[j];
    }
    return sum;
  }

  private static double residualClip(ErmProblem problem) {
    double configured = problem.options().residualClip();
    double bound = problem.objective().residualBound();
    double clip = Double.isNaN(configured) ? bound : Math.min(configured, bound);
    if (!Double.isFinite(clip)) {
      if (problem.isPrivate()) {
        throw new IllegalArgumentException("the loss " + problem.objective().loss()
            + " is not Lipschitz: DP-SkGD needs ErmOptions.residualClip");
      }
      return Double.POSITIVE_INFINITY;
    }
    return clip;
  }

  /**
   * Per-coordinate clipping thresholds: with {@link ErmOptions#clipNorm} set, the smooth rule of DP-CD,
   * C_j = sqrt(M_j / tr M) C, so that with b = d blocks and uniform sampling DP-SkGD is DP-CD with smooth
   * clipping (the special case the paper names); without it, no clipping (the paper's Lipschitz setting).
   * This is our reading: 000 assumes Lipschitz losses and does not clip; we clip so that a user's clip
   * norm, not the worst case of the declared bounds, sets the noise.
   */
  private static double[] coordinateClips(ErmProblem problem, double[] coordinateSmoothness) {
    double clipNorm = problem.options().clipNorm();
    if (Double.isNaN(clipNorm)) {
      double[] none = new double[coordinateSmoothness.length];
      Arrays.fill(none, Double.POSITIVE_INFINITY);
      return none;
    }
    return DpCd.ClippingRule.SMOOTH.thresholds(clipNorm, coordinateSmoothness);
  }

  /**
   * The l2 bound of one sample's block gradient: L_U = R ||b_U||_2 from the declared bounds, or the
   * clipped bound sqrt(sum_{j in U} C_j^2) when that is smaller; rounded up (infinite without a residual
   * bound and without clipping, for non-private runs).
   */
  static double[] blockSensitivityBounds(BlockPartition partition, FeatureBounds bounds, double residualClip,
      double[] coordinateClips) {
    double[] lipschitz = new double[partition.blockCount()];
    for (int u = 0; u < lipschitz.length; u++) {
      double squared = 0;
      double clippedSquared = 0;
      for (int j : partition.blockView(u)) {
        squared += bounds.bound(j) * bounds.bound(j);
        clippedSquared += coordinateClips[j] * coordinateClips[j];
      }
      lipschitz[u] = Rounding.up(Math.min(residualClip * Math.sqrt(squared), Math.sqrt(clippedSquared)));
    }
    return lipschitz;
  }

  private static LoopSchedule schedule(ErmProblem problem, BlockSampling blocks, double[] smoothness,
      double[] blockLipschitz, long updatesPerPass) {
    ErmOptions options = problem.options();
    LoopRule rule = options.loopRule();
    if (rule instanceof LoopRule.FromPasses) {
      return LoopSchedule.ofPasses(problem.passes(), updatesPerPass, options.averaging());
    }
    if (!problem.isPrivate()) {
      throw new IllegalArgumentException("the theorems' loop lengths depend on the budget: private runs only");
    }
    BlockPartition partition = blocks.partition();
    double sigmaSSquared = sigmaSSquared(partition, blockLipschitz, smoothness);
    int n = problem.dataset().size();
    if (rule instanceof LoopRule.ConvexTheorem convex) {
      return LoopSchedule.convexTheorem(n, problem.budget(), convex.radiusBound(), Math.sqrt(sigmaSSquared));
    }
    LoopRule.StronglyConvexTheorem strong = (LoopRule.StronglyConvexTheorem) rule;
    double mu = problem.objective().regularizer().l2Weight();
    if (!(mu > 0)) {
      throw new IllegalArgumentException("the strongly convex schedule needs a regulariser with l2 weight > 0");
    }
    double maxRatio = 0;
    for (int j = 0; j < smoothness.length; j++) {
      maxRatio = Math.max(maxRatio, smoothness[j] / blocks.inclusionProbability(j));
    }
    return LoopSchedule.stronglyConvexTheorem(n, problem.budget(), maxRatio / mu, strong.gapBound(),
        sigmaSSquared, strong.innerLoopLength());
  }
}
