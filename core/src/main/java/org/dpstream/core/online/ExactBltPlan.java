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
import org.dpstream.core.privacy.factorization.BltStrategy;
import org.dpstream.core.privacy.factorization.ExactBltPrefixSum;
import org.dpstream.core.privacy.factorization.FixedPointBlt;
import org.dpstream.core.privacy.noise.DiscreteGaussian;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.tree.DiscreteGaussianNodeNoise;
import org.dpstream.core.privacy.tree.Lattice;
import org.dpstream.core.privacy.tree.NodeNoise;
import org.dpstream.core.state.NoiseLaw;

/**
 * The exact BLT ({@link ExactBltPrefixSum}) for {@code noise: discrete}: the BLT optimised for the horizon, applied
 * in fixed point to the lattice leaves, with exact discrete Gaussian noise, accounted in zCDP.
 *
 * <p>Calibration: the one Gaussian zCDP map ({@link GaussianZcdpMap}, in rho from the spec's {@link ZcdpBudget}) with
 * the Toeplitz structure ({@link SensitivityStructure#toeplitz}) of the quantised strategy's squared column norms,
 * widened by the rounding of the fixed-point C side: rows 1..t of neighbours move by at most S sqrt(F(t)) +
 * gamma kappa sqrt(d (t - 1)) in l2 (S the leaf's l2 sensitivity including the lattice rounding, kappa
 * {@link FixedPointBlt#roundingSlack}), so the calibration is given F_eff(t) = (sqrt(F(t)) + (gamma kappa / S)
 * sqrt(d (t - 1)))^2, rounded up. The discrete Gaussian's n is sigma / gamma rounded up (never lower), so the
 * accounted rho stays an upper bound (docs/privacy-layer.md, "The exact BLT").
 *
 * <p>Lattice: the finest of 2^-30 .. 2^-16 times the clip bound on which the fixed point fits (a longer horizon has
 * decays closer to 1 and needs a coarser lattice); at n = 10^4 it is 2^-29 of the bound, and the predicted worst-release
 * error is 1.0001 times the continuous BLT's (1.009 at n = 10^5).
 *
 * @param encoder the fixed-point strategy
 * @param lattice the leaves' lattice
 * @param calibration sigma (real units) and the privacy map
 * @param predictedReleaseError E ||noise of the worst release||_q^2, as {@link AccountantChoice#AUTO} compares it
 * @param noiseScale the sampler's sigma over the calibration's: 1, but in the audit's negative control
 */
public record ExactBltPlan(FixedPointBlt encoder, Lattice lattice, GaussianZcdpMap calibration,
    double predictedReleaseError, double noiseScale) implements PrefixSumPlan, ReleaseNoise {

  /** The finest lattice tried: the tree's. */
  static final int MOST_LATTICE_BITS = TreeNoisePlan.LATTICE_BITS;
  /** The coarsest lattice tried; beyond it (horizons far past 10^6) the tree is the exact mechanism. */
  static final int FEWEST_LATTICE_BITS = 16;

  public static ExactBltPlan of(OnlineModelSpec spec) {
    return of(spec, ZcdpBudget.of(spec.budget()));
  }

  /** The plan for the spec with a zCDP budget of its own (adaptive clipping's epochs: theirs). */
  static ExactBltPlan of(OnlineModelSpec spec, ZcdpBudget budget) {
    return of(budget, spec.horizon(), TreeNoisePlan.clipBound(spec), TreeNoisePlan.incrementBound(spec),
        spec, spec.dimension(), LpNorm.dualExponent(spec.p()));
  }

  private static ExactBltPlan of(ZcdpBudget budget, long horizon, double clipBound, double coordinateBound,
      OnlineModelSpec spec, int dimension, double q) {
    Key key = new Key(budget, horizon, clipBound, coordinateBound, PrefixSumPlan.l2PersonSensitivity(spec, 0), dimension,
        q);
    ExactBltPlan cached = CACHE.get(key);
    if (cached != null) {
      return cached;
    }
    ExactBltPlan plan = build(budget, horizon, clipBound, coordinateBound, spec, dimension, q);
    if (CACHE.size() >= CACHE_LIMIT) {
      CACHE.clear(); // plans are deterministic functions of the key: dropping one costs only time
    }
    CACHE.putIfAbsent(key, plan);
    return plan;
  }

  private record Key(ZcdpBudget budget, long horizon, double clipBound, double coordinateBound,
      double l2Sensitivity, int dimension, double q) {}

  private static final Map<Key, ExactBltPlan> CACHE = new ConcurrentHashMap<>();
  private static final int CACHE_LIMIT = 256;

  /**
   * Empties the cache; only tests call it. Mutation testing hot-swaps one mutant after another into one JVM, and an
   * entry built under an earlier mutant would answer for the code under test: tests start from an empty cache.
   */
  static void clearForTests() {
    CACHE.clear();
  }

  private static ExactBltPlan build(ZcdpBudget budget, long horizon, double clipBound, double coordinateBound,
      OnlineModelSpec spec, int dimension, double q) {
    BltStrategy optimised = BltOptimizer.forHorizon(horizon);
    for (int bits = MOST_LATTICE_BITS; bits >= FEWEST_LATTICE_BITS; bits--) {
      Lattice lattice = Lattice.forScale(clipBound, bits);
      // Every coordinate of a clipped leaf is at most its clip bound (|g_j| <= ||g|| in any norm); rounding adds 1/2.
      long leafBound = (long) Math.ceil(Math.scalb(coordinateBound, -lattice.exponent())) + 1;
      FixedPointBlt encoder;
      try {
        encoder = FixedPointBlt.of(optimised, leafBound);
      } catch (IllegalArgumentException tooLong) {
        continue;
      }
      return calibrated(budget, horizon, spec, dimension, q, lattice, encoder);
    }
    throw new IllegalArgumentException("noise: discrete has no exact BLT for a horizon of " + horizon
        + " (its decays are too close to 1 for the lattice); use accountant zcdp (the tree)");
  }

  private static ExactBltPlan calibrated(ZcdpBudget budget, long horizon, OnlineModelSpec spec, int dimension,
      double q, Lattice lattice, FixedPointBlt encoder) {
    // One sample's shift, rounding included, is S sqrt(F_eff); a person's k samples shift the rows by at most k times
    // that (triangle inequality, one replaced leaf at a time): the map's sensitivity is k S over one sample's norms.
    double leaf = PrefixSumPlan.l2LeafSensitivity(spec, lattice.roundingSlack(dimension, 2));
    double sensitivity = PrefixSumPlan.l2PersonSensitivity(spec, lattice.roundingSlack(dimension, 2));
    GaussianZcdpMap calibration = GaussianZcdpMap.calibrate("zcdp-" + budget.conversion().citation() + "-exact-blt",
        budget, sensitivity,
        SensitivityStructure.toeplitz(horizon, encoder.shiftNorms(lattice.granularity(), dimension, leaf)));
    double sigmaUnits = Math.scalb(calibration.sigma(), -lattice.exponent());
    if (!(sigmaUnits < DiscreteGaussian.MAX_SIGMA)) {
      throw new IllegalArgumentException("noise: discrete needs the exact BLT's sigma below 2^53 units of the lattice,"
          + " got " + sigmaUnits + " units of " + lattice + "; use noise: continuous or a larger epsilon");
    }
    double releaseSigma = calibration.sigma() * Math.sqrt(encoder.strategy().squaredErrorRowNorm(horizon));
    return new ExactBltPlan(encoder, lattice, calibration,
        TreeNoisePlan.gaussianDualNormSquare(dimension, q, releaseSigma), 1);
  }

  /**
   * What {@link AccountantChoice#AUTO} picks for discrete noise: this exact BLT if its predicted worst-release error
   * in the dual norm is below the zCDP tree's (the only other exact mechanism), else the tree. Public functions of
   * the spec, as {@link BltPlan#orTree} for continuous noise.
   */
  static PrefixSumPlan orTree(OnlineModelSpec spec, ZcdpBudget budget) {
    TreeNoisePlan tree = TreeNoisePlan.choose(spec, budget);
    ExactBltPlan blt;
    try {
      blt = of(spec, budget);
    } catch (IllegalArgumentException noExactBlt) {
      return tree; // a horizon beyond the fixed point's reach, or a sigma beyond the sampler's
    }
    return blt.predictedReleaseError < BltPlan.treeWorstReleaseError(tree, spec.horizon()) ? blt : tree;
  }

  @Override
  public LpNorm clipNorm() {
    return LpNorm.L2;
  }

  /** As the continuous BLT's, for the quantised strategy. */
  @Override
  public double incrementNoiseVariance(long from, long to) {
    return BltPlan.incrementNoiseVariance(encoder.strategy(), calibration.sigma(), from, to);
  }

  @Override
  public String describe() {
    return calibration.accountant() + "/discrete-gaussian(d, sigma=" + calibration.sigma() + ", buffers="
        + encoder.buffers() + ", " + lattice + ")";
  }

  @Override
  public PrivatePrefixSums start(OnlineModelSpec spec, KeyedNoiseSource source) {
    return ExactBltPrefixSum.start(encoder, lattice, noise(spec, source), calibration.horizon(), spec.dimension());
  }

  /**
   * The lattice, the fixed-point strategy (its exact quantised decays and scales, and the leaves' clamp), the
   * calibrated sigma and its sampler's scale, the horizon, and known answers of the mechanism.
   */
  @Override
  public byte[] noiseLaw(OnlineModelSpec spec) {
    NoiseLaw law = NoiseLaw.of("exact-blt").text("accountant", calibration.accountant())
        .number("lattice exponent", lattice.exponent()).number("leaf bound", encoder.leafBound())
        .numbers("decays", encoder.strategy().decays()).numbers("scales", encoder.strategy().scales())
        .number("sigma", calibration.sigma()).number("noise scale", noiseScale)
        .number("horizon", calibration.horizon());
    return PrefixSumPlan.withKnownAnswers(law, start(spec, NoiseLaw.probeSource()), spec.dimension()).digest();
  }

  @Override
  public PrivatePrefixSums restore(OnlineModelSpec spec, DataInput in, KeyedNoiseSource source) throws IOException {
    return ExactBltPrefixSum.readFrom(in, encoder, lattice, noise(spec, source), calibration.horizon(),
        spec.dimension());
  }

  /**
   * Test seam for the audit's negative control: this plan with its noise scaled by {@code scale} and its accounting
   * unchanged (NOT PRIVATE for a scale below 1).
   */
  ExactBltPlan withNoiseScale(double scale) {
    return new ExactBltPlan(encoder, lattice, calibration, predictedReleaseError, scale);
  }

  /** N_Z(0, n^2) per coordinate and step, n = sigma / gamma rounded up, from the keyed source. */
  private NodeNoise noise(OnlineModelSpec spec, KeyedNoiseSource source) {
    return DiscreteGaussianNodeNoise.onLattice(source.forStream(ExactBltPrefixSum.NOISE_PURPOSE, spec.modelId()),
        spec.dimension(), calibration.sigma() * noiseScale, lattice);
  }
}
