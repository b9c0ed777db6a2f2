package org.dpstream.core.online;

import java.io.DataInput;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.dpstream.core.geometry.LpNorm;
import org.dpstream.core.privacy.PrivatePrefixSums;
import org.dpstream.core.privacy.accounting.GaussianZcdpMap;
import org.dpstream.core.privacy.accounting.SensitivityStructure;
import org.dpstream.core.privacy.accounting.ZcdpBudget;
import org.dpstream.core.privacy.factorization.BltOptimizer;
import org.dpstream.core.privacy.factorization.BltPrefixSum;
import org.dpstream.core.privacy.factorization.BltStrategy;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.state.NoiseLaw;

/**
 * Prefix sums through a buffered linear Toeplitz (BLT) factorization with Gaussian noise, accounted in zCDP:
 * the square root's error (its worst per-step variance within a fraction of a percent at n = 10^4) at the
 * tree's cost, O(d m) time and state per step for m = {@value BltOptimizer#DEFAULT_BUFFERS} buffers. The
 * parameters are optimised for the spec's horizon once (cached, deterministic: {@link BltOptimizer}).
 *
 * <p>Sensitivity: l2, as the factorization's ({@link PrefixSumPlan#l2LeafSensitivity}); the privacy map is
 * {@link GaussianZcdpMap} with the BLT's rigorous column-norm bounds ({@link SensitivityStructure#toeplitz}).
 *
 * @param strategy the BLT parameters for the horizon
 * @param calibration sigma and the privacy map
 * @param predictedReleaseError E ||noise of the worst release||_q^2 (q the dual norm), as {@link AccountantChoice#AUTO}
 *     compares it with the tree's
 */
public record BltPlan(BltStrategy strategy, GaussianZcdpMap calibration, double predictedReleaseError)
    implements PrefixSumPlan, ReleaseNoise {

  public static BltPlan of(OnlineModelSpec spec) {
    return of(spec, ZcdpBudget.of(spec.budget()));
  }

  /** The plan for the spec with a zCDP budget of its own (adaptive clipping's blocks: theirs). */
  static BltPlan of(OnlineModelSpec spec, ZcdpBudget budget) {
    return of(budget, spec.horizon(), PrefixSumPlan.l2PersonSensitivity(spec, 0), spec.dimension(),
        LpNorm.dualExponent(spec.p()));
  }

  /**
   * The plan for an epoch of {@code horizon} steps of leaves of l2 sensitivity S in dimension d, errors
   * predicted in the norm q. Cheap after the first call for a horizon (the strategy is cached; the calibration
   * is a few hundred zCDP conversions).
   */
  public static BltPlan of(ZcdpBudget budget, long horizon, double l2Sensitivity, int dimension, double q) {
    Key key = new Key(budget, horizon, l2Sensitivity, dimension, q);
    BltPlan cached = CACHE.get(key);
    if (cached != null) {
      return cached;
    }
    BltPlan plan = build(budget, horizon, l2Sensitivity, dimension, q);
    if (CACHE.size() >= CACHE_LIMIT) {
      CACHE.clear(); // plans are deterministic functions of the key: dropping one costs only time
    }
    CACHE.putIfAbsent(key, plan);
    return plan;
  }

  /** Plans by everything they depend on: a model (or a block of one) that restarts gets its plan in a look-up. */
  private record Key(ZcdpBudget budget, long horizon, double l2Sensitivity, int dimension, double q) {}

  private static final Map<Key, BltPlan> CACHE = new ConcurrentHashMap<>();
  private static final int CACHE_LIMIT = 256;

  /**
   * Empties the cache; only tests call it. Mutation testing hot-swaps one mutant after another into one JVM, and an
   * entry built under an earlier mutant would answer for the code under test: tests start from an empty cache.
   */
  static void clearForTests() {
    CACHE.clear();
  }

  private static BltPlan build(ZcdpBudget budget, long horizon, double l2Sensitivity, int dimension, double q) {
    BltStrategy strategy = BltOptimizer.forHorizon(horizon);
    GaussianZcdpMap calibration = GaussianZcdpMap.calibrate("zcdp-" + budget.conversion().citation() + "-blt", budget,
        l2Sensitivity, SensitivityStructure.toeplitz(horizon, strategy::squaredColumnNormUpperBounds));
    // The worst release is the last of the epoch: per coordinate N(0, sigma^2 E(n)).
    double releaseSigma = calibration.sigma() * Math.sqrt(strategy.squaredErrorRowNorm(horizon));
    return new BltPlan(strategy, calibration, TreeNoisePlan.gaussianDualNormSquare(dimension, q, releaseSigma));
  }

  /**
   * What {@link AccountantChoice#AUTO} picks for continuous noise: this BLT plan if its predicted worst-release
   * error in the dual norm is below the better tree's, else that tree. Both are public functions of the spec.
   */
  static PrefixSumPlan orTree(OnlineModelSpec spec, ZcdpBudget budget) {
    TreeNoisePlan tree = TreeNoisePlan.choose(spec, budget);
    BltPlan blt = of(spec, budget);
    return blt.predictedReleaseError < treeWorstReleaseError(tree, spec.horizon()) ? blt : tree;
  }

  /**
   * The tree's predicted worst-release error: its release at t sums popcount(t) independent nodes, at most
   * floor(log2(n + 1)) of them for t &lt;= n, so h' times the node's predicted E ||Z||_q^2. Exact for Gaussian
   * nodes (independent Gaussian variances add, and the q-th moment formula scales with the variance); for the
   * paper's generalized Gaussian it sums the node's norm-equivalence bound, the same proxy the tree choice uses.
   */
  static double treeWorstReleaseError(TreeNoisePlan tree, long horizon) {
    int worstPopcount = 63 - Long.numberOfLeadingZeros(horizon + 1);
    return worstPopcount * tree.predictedNodeError();
  }

  @Override
  public LpNorm clipNorm() {
    return LpNorm.L2;
  }

  @Override
  public double incrementNoiseVariance(long from, long to) {
    return incrementNoiseVariance(strategy, calibration.sigma(), from, to);
  }

  /** sigma^2 times the squared norm of row {@code to} minus row {@code from} of B = A C^(-1) (also the exact BLT's). */
  static double incrementNoiseVariance(BltStrategy strategy, double sigma, long from, long to) {
    return sigma * sigma * strategy.squaredErrorIncrementNorm(from, to - from);
  }

  @Override
  public String describe() {
    return calibration.accountant() + "/gaussian(d, sigma=" + calibration.sigma() + ", buffers="
        + strategy.buffers() + ")";
  }

  @Override
  public PrivatePrefixSums start(OnlineModelSpec spec, KeyedNoiseSource source) {
    return BltPrefixSum.start(spec.dimension(), strategy, calibration,
        source.forStream(BltPrefixSum.NOISE_PURPOSE, spec.modelId()));
  }

  @Override
  public byte[] noiseLaw(OnlineModelSpec spec) {
    NoiseLaw law = NoiseLaw.of("blt").text("accountant", calibration.accountant())
        .numbers("decays", strategy.decays()).numbers("scales", strategy.scales())
        .number("sigma", calibration.sigma()).number("horizon", calibration.horizon());
    return PrefixSumPlan.withKnownAnswers(law, start(spec, NoiseLaw.probeSource()), spec.dimension()).digest();
  }

  @Override
  public PrivatePrefixSums restore(OnlineModelSpec spec, DataInput in, KeyedNoiseSource source) throws IOException {
    return BltPrefixSum.readFrom(in, strategy, calibration,
        source.forStream(BltPrefixSum.NOISE_PURPOSE, spec.modelId()), spec.dimension());
  }
}
