package org.dpstream.core.online;

import java.io.DataInput;
import java.io.IOException;
import org.apache.commons.numbers.gamma.LogGamma;
import org.dpstream.core.geometry.LpNorm;
import org.dpstream.core.privacy.accounting.GaussianTreeCalibration;
import org.dpstream.core.privacy.accounting.NormRegularity;
import org.dpstream.core.privacy.accounting.PaperTreeCalibration;
import org.dpstream.core.privacy.accounting.PrivacyCalibration;
import org.dpstream.core.privacy.accounting.ZcdpBudget;
import org.dpstream.core.privacy.noise.DiscreteGaussian;
import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.dpstream.core.privacy.noise.GeneralizedGaussianNoise;
import org.dpstream.core.privacy.noise.VectorNoise;
import org.dpstream.core.privacy.PrivatePrefixSums;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseStream;
import org.dpstream.core.privacy.tree.ContinualPrefixSum;
import org.dpstream.core.privacy.tree.DiscreteGaussianNodeNoise;
import org.dpstream.core.privacy.tree.KeyedNodeNoise;
import org.dpstream.core.privacy.tree.Lattice;
import org.dpstream.core.privacy.tree.LatticePrefixSums;
import org.dpstream.core.privacy.tree.NodeNoise;
import org.dpstream.core.state.NoiseLaw;

/**
 * The node noise of DP-TOFW's tree and the calibration behind it, chosen from the spec.
 *
 * <p>Sensitivity: a clipped increment has ||g||_q <= L + beta D; rounding it to the lattice adds at
 * most {@link Lattice#roundingSlack}; neighbours replace one sample, so the leaf changes by at most
 * twice that. The paper's calibration takes it in the norm q; zCDP needs l2, and ||v||_2 <= d^(1/2 -
 * 1/q) ||v||_q when q > 2 (and <= ||v||_q when q <= 2).
 *
 * <p>{@link AccountantChoice#AUTO} compares the predicted E ||Z||_q^2 of one node: the exact q-th
 * moment of the Gaussian raised to 2/q, against the norm-equivalence bound d sigma_+^2 for the l_{q+}
 * generalized Gaussian (||.||_q <= ||.||_+, the paper's Definition 2.2). Both are public functions of
 * the spec, so the choice leaks nothing.
 *
 * <p>{@link NoiseChoice#DISCRETE} draws the zCDP tree's node noise from the exact discrete Gaussian on
 * the lattice, N_Z(0, n^2) per coordinate in lattice units with n = ceil(sigma / gamma), under the same
 * calibration: the leaves of neighbours differ by an integer vector of l2 norm at most S / gamma, so each
 * node is at most (S^2 / (2 sigma^2))-zCDP, as for the continuous Gaussian (CKS20; docs/privacy-layer.md).
 * AUTO then means ZCDP among the trees (the paper's accountant prices continuous noise); {@link ExactBltPlan#orTree}
 * weighs that tree against the exact BLT.
 *
 * @param calibration the privacy map of the tree's releases
 * @param noise one node's noise distribution (for DISCRETE, the Gaussian whose sigma the discrete sampler takes)
 * @param predictedNodeError the predicted E ||Z||_q^2 used by AUTO
 * @param clipNorm the norm its sensitivity is measured in: the dual norm q for the paper's calibration,
 *     l2 for zCDP (whole-increment clipping clips in it)
 * @param sampling continuous (Ziggurat, rounded to the lattice) or exact discrete node noise
 */
public record TreeNoisePlan(PrivacyCalibration calibration, VectorNoise noise, double predictedNodeError, LpNorm clipNorm,
    NoiseChoice sampling)
    implements PrefixSumPlan, ReleaseNoise {

  /** Bits of the clip bound kept by the lattice: 2^30 units per bound leaves 2^32 steps before overflow. */
  static final int LATTICE_BITS = 30;

  /**
   * L + beta D with a floating-point margin: clipping bounds the computed norm by C, and the exact
   * norm of the stored vector can exceed it by the summation error, below d 2^-52 relative. The margin
   * is 16 times that (at least 2^-40) and costs nothing measurable.
   */
  static double incrementBound(OnlineModelSpec spec) {
    double margin = 1 + Math.max(0x1p-40, spec.dimension() * 0x1p-48);
    return Math.nextUp(clipBound(spec) * margin);
  }

  /** C for whole-increment clipping (in the plan's clip norm), else L + beta D (in the dual norm). */
  static double clipBound(OnlineModelSpec spec) {
    return spec.incrementClipping().isWhole()
        ? spec.incrementClipping().threshold()
        : spec.clipBounds().incrementBound();
  }

  /** Every coordinate of a clipped increment is at most its clip bound: |g_i| <= ||g||_q, ||g||_2. */
  public static Lattice latticeFor(OnlineModelSpec spec) {
    return latticeForBound(clipBound(spec));
  }

  /** The lattice of increments clipped to {@code clipBound} (what {@link #latticeFor} gives a spec of that bound). */
  public static Lattice latticeForBound(double clipBound) {
    return Lattice.forScale(clipBound, LATTICE_BITS);
  }

  public static TreeNoisePlan choose(OnlineModelSpec spec) {
    // The paper's calibration is not accounted in zCDP: its budget stays (epsilon, delta).
    return spec.accountant() == AccountantChoice.PAPER ? paper(spec) : choose(spec, ZcdpBudget.of(spec.budget()));
  }

  /** The tree of the spec's accountant, the zCDP tree calibrated for {@code budget}. */
  static TreeNoisePlan choose(OnlineModelSpec spec, ZcdpBudget budget) {
    if (spec.noise() == NoiseChoice.DISCRETE) {
      // The spec admits DISCRETE with ZCDP or AUTO only; the discrete Gaussian is accounted in zCDP.
      return zcdp(spec, budget);
    }
    return switch (spec.accountant()) {
      case PAPER -> paper(spec);
      case ZCDP -> zcdp(spec, budget);
      case FACTORIZATION, BLT -> throw new IllegalArgumentException(spec.accountant() + " is not a tree: use PrefixSumPlan.choose");
      case AUTO -> {
        if (spec.participations() > 1) {
          yield zcdp(spec, budget); // the paper's calibration is event level only
        }
        TreeNoisePlan paper = paper(spec);
        TreeNoisePlan zcdp = zcdp(spec, budget);
        yield zcdp.predictedNodeError <= paper.predictedNodeError ? zcdp : paper;
      }
    };
  }

  static TreeNoisePlan paper(OnlineModelSpec spec) {
    int d = spec.dimension();
    double q = LpNorm.dualExponent(spec.p());
    Lattice lattice = latticeFor(spec);
    double qSensitivity = Math.nextUp(2 * Math.nextUp(incrementBound(spec) + lattice.roundingSlack(d, q)));
    NormRegularity regularity = NormRegularity.forPrimalExponent(spec.p(), d);
    PaperTreeCalibration calibration = PaperTreeCalibration.of(spec.budget(), spec.horizon(), regularity, qSensitivity);
    double sigmaPlus = calibration.nodeSigma();
    VectorNoise noise = switch (regularity.smoothNorm()) {
      case LP -> GeneralizedGaussianNoise.ofLqPlus(d, regularity.smoothNormExponent(), sigmaPlus);
      // ||z||_+ = c ||z||_2: the density exp(-c^2 ||z||_2^2 / (2 sigma_+^2)) is N(0, (sigma_+ / c)^2 I). The
      // regularity's c is d^(1/2 - 1/p) for p > 2 (Lemma 3.3) but also covers small d with p near 1.
      case SCALED_L2 -> IidVectorNoise.gaussian(d, Math.nextUp(sigmaPlus / regularity.euclideanScale()));
    };
    double predicted = noise instanceof IidVectorNoise gaussian && gaussian.law() == IidVectorNoise.Law.GAUSSIAN
        ? gaussianDualNormSquare(d, q, gaussian.scale())
        : d * sigmaPlus * sigmaPlus;
    return new TreeNoisePlan(calibration, noise, predicted, spec.domain().norm().dual(), NoiseChoice.CONTINUOUS);
  }

  static TreeNoisePlan zcdp(OnlineModelSpec spec, ZcdpBudget budget) {
    int d = spec.dimension();
    double q = LpNorm.dualExponent(spec.p());
    double l2Sensitivity = PrefixSumPlan.l2LeafSensitivity(spec, latticeFor(spec).roundingSlack(d, 2));
    GaussianTreeCalibration calibration =
        GaussianTreeCalibration.of(budget, spec.horizon(), l2Sensitivity, spec.participations());
    IidVectorNoise noise = IidVectorNoise.gaussian(d, calibration.nodeSigma());
    if (spec.noise() == NoiseChoice.DISCRETE) {
      requireDiscreteRange(noise.scale(), latticeFor(spec));
    }
    return new TreeNoisePlan(calibration, noise, gaussianDualNormSquare(d, q, noise.scale()), LpNorm.L2,
        spec.noise());
  }

  /** The discrete sampler takes sigma / gamma below 2^53 - 1: checked when the plan is made, not at the first sample. */
  private static void requireDiscreteRange(double sigma, Lattice lattice) {
    double units = Math.scalb(sigma, -lattice.exponent());
    if (!(units < DiscreteGaussian.MAX_SIGMA)) {
      throw new IllegalArgumentException("noise: discrete needs the node sigma below 2^53 units of the lattice, got "
          + sigma + " = " + units + " units of " + lattice + "; use noise: continuous or a larger epsilon");
    }
  }

  /** (E ||Z||_q^q)^(2/q) for Z ~ N(0, sigma^2 I_d): E|N(0,1)|^q = 2^(q/2) Gamma((q+1)/2) / sqrt(pi). */
  static double gaussianDualNormSquare(int d, double q, double sigma) {
    if (Double.isInfinite(q)) {
      // E max_i |Z_i|^2 <= sigma^2 (2 ln(2d) + 2), a standard maximal inequality; only for comparison.
      return sigma * sigma * (2 * Math.log(2.0 * d) + 2);
    }
    double logMoment = (q / 2) * Math.log(2) + LogGamma.value((q + 1) / 2) - 0.5 * Math.log(Math.PI);
    return sigma * sigma * Math.exp((2 / q) * (Math.log(d) + logMoment));
  }

  /**
   * The release at t sums the popcount(t) nodes of the dyadic decomposition of [1, t]; those of {@code from} and
   * {@code to} share the nodes of their common leading bits (above the highest bit where they differ), which cancel.
   * Independent nodes: (popcount(to) + popcount(from) - 2 shared) times a node's variance, sigma^2 for Gaussian nodes;
   * for the paper's generalized Gaussian the norm-equivalence proxy AUTO uses (predictedNodeError / d).
   */
  @Override
  public double incrementNoiseVariance(long from, long to) {
    int highestDifference = 63 - Long.numberOfLeadingZeros(from ^ to);
    long nodes = Long.bitCount(to) + Long.bitCount(from) - 2L * Long.bitCount(from >>> (highestDifference + 1));
    if (noise instanceof IidVectorNoise gaussian && gaussian.law() == IidVectorNoise.Law.GAUSSIAN) {
      return nodes * gaussian.scale() * gaussian.scale();
    }
    return nodes * predictedNodeError / noise.dimension();
  }

  @Override
  public String describe() {
    String sampler = sampling == NoiseChoice.DISCRETE ? "discrete-" : "";
    return calibration.accountant() + "/" + sampler + noise.describe();
  }

  @Override
  public PrivatePrefixSums start(OnlineModelSpec spec, KeyedNoiseSource source) {
    return withNodeNoise(spec, keyedNodeNoise(spec, source));
  }

  @Override
  public byte[] noiseLaw(OnlineModelSpec spec) {
    NoiseLaw law = NoiseLaw.of("tree").text("accountant", calibration.accountant())
        .text("sampling", sampling.fingerprintToken()).text("noise", noise.describe())
        .number("lattice exponent", latticeFor(spec).exponent());
    if (noise instanceof IidVectorNoise iid) {
      law.text("law", iid.law().name()).number("scale", iid.scale());
    } else if (noise instanceof GeneralizedGaussianNoise generalized) {
      law.number("q+", generalized.qPlus()).number("sigma+", generalized.sigmaPlus());
    }
    return PrefixSumPlan.withKnownAnswers(law, start(spec, NoiseLaw.probeSource()), spec.dimension()).digest();
  }

  @Override
  public PrivatePrefixSums restore(OnlineModelSpec spec, DataInput in, KeyedNoiseSource source) throws IOException {
    return new LatticePrefixSums(latticeFor(spec), ContinualPrefixSum.readCompact(in, keyedNodeNoise(spec, source)));
  }

  /** Test seam: the tree on any node noise (e.g. none, to check the optimiser alone). */
  PrivatePrefixSums withNodeNoise(OnlineModelSpec spec, NodeNoise nodeNoise) {
    return new LatticePrefixSums(latticeFor(spec), ContinualPrefixSum.compact(spec.dimension(), spec.horizon(), nodeNoise));
  }

  private NodeNoise keyedNodeNoise(OnlineModelSpec spec, KeyedNoiseSource source) {
    NoiseStream bits = source.forStream("tree", spec.modelId());
    if (sampling == NoiseChoice.DISCRETE) {
      // zcdp(spec, budget) made the noise an isotropic Gaussian; its sigma is the calibrated one, exactly.
      double sigma = ((IidVectorNoise) noise).scale();
      return DiscreteGaussianNodeNoise.onLattice(bits, spec.dimension(), sigma, latticeFor(spec));
    }
    return new KeyedNodeNoise(bits, noise, latticeFor(spec));
  }
}
