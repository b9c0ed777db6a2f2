package org.dpstream.bandit.ucb;

import java.util.Arrays;
import java.util.Optional;
import org.dpstream.bandit.BanditPolicy;
import org.dpstream.bandit.Decision;
import org.dpstream.core.privacy.accounting.GaussianTreeCalibration;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.ZcdpBudget;
import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.tree.ContinualPrefixSum;
import org.dpstream.core.privacy.tree.KeyedNodeNoise;
import org.dpstream.core.privacy.tree.Lattice;
import org.dpstream.core.privacy.tree.LatticePrefixSums;
import org.ejml.data.DMatrixRMaj;

/**
 * DP-UCB, the baseline of Han et al.'s Figure 5.1: Shariff and Sheffet's (NeurIPS 2018) linear UCB with
 * additive Gaussian noise on the Gram matrix and the reward vector through the tree mechanism, with one
 * linear model per arm (disjoint LinUCB, Li et al. 2010).
 *
 * <p>Per round t, every arm's tree receives a leaf: (upper triangle of x x', r x) for the chosen arm
 * (x clipped to ||x||_2 &lt;= L, r to [-B, B]) and zero for the others, so the trees' shapes do not
 * reveal the arm. Each arm releases the noisy prefix sums (G_a, u_a), symmetrised ({@link ArmLeaf}),
 * shifts G_a by (2 Upsilon + lambda) I, and the next decision is argmax_a x' theta~_a + beta_t
 * ||x||_{V_a^-1} ({@link DpUcbConfidence} for what we reconstructed of their Algorithm 1 and section
 * 4.2).
 *
 * <p>Privacy: the K leaves of a round form one concatenated leaf of a single tree whose nodes carry
 * independent N(0, sigma^2) noise per coordinate; replacing one round's (x, r, arm) changes it by at most
 * {@link ArmLeaf#concatenatedSensitivity} in l2, so our zCDP calibration ({@link GaussianTreeCalibration})
 * makes the sequence of released statistics (epsilon, delta)-DP over the horizon. Decisions for round t
 * are a function of the releases of rounds &lt; t and of user t's own context, hence joint DP (Shariff and
 * Sheffet, Definition 2 and Claim 5; the billboard lemma). Noise bits come from the keyed source,
 * purpose {@value #NOISE_PURPOSE}, stream {@code banditId/arm-a}, kind {@value #NOISE_KIND}: the same key
 * reproduces a run exactly.
 *
 * <p>The policy refuses updates beyond the horizon T (a second tree would need a second budget).
 */
public final class DpUcbPolicy implements BanditPolicy {

  /** Purpose of the keyed noise streams. */
  public static final String NOISE_PURPOSE = "dp-ucb";

  /** The kind of its noise streams ({@link KeyedNoiseSource#kind}): never those of a model or another bandit. */
  public static final String NOISE_KIND = "dp-ucb/arms";

  /** Bits of the larger of L^2 and B L kept by the lattice: 2^30 units leave room for 2^22 rounds of sums. */
  private static final int LATTICE_BITS = 30;

  private final DpUcbSpec spec;
  private final GaussianTreeCalibration calibration;
  private final DpUcbConfidence confidence;
  private final LatticePrefixSums[] sums;
  private final ArmEstimate[] estimates;
  private final double[] leaf;
  private final double[] zeroLeaf;
  /** Each arm's latest release (its noisy prefix sum), kept per arm so that a release can be read back. */
  private final double[][] releases;
  private final double sensitivity;
  private final DMatrixRMaj gram;
  private final double[] rewardVector;
  private long rounds;
  private long repairs;

  public DpUcbPolicy(DpUcbSpec spec, KeyedNoiseSource noise) {
    this.spec = spec;
    int d = spec.dimension();
    int leafLength = ArmLeaf.length(d);
    double contextL2 = spec.contextL2Bound();
    Lattice lattice = Lattice.forScale(Math.max(contextL2 * contextL2, spec.rewardBound() * contextL2), LATTICE_BITS);
    this.sensitivity = ArmLeaf.concatenatedSensitivity(
        contextL2, spec.rewardBound(), lattice.roundingSlack(leafLength, 2));
    this.calibration = GaussianTreeCalibration.of(ZcdpBudget.of(spec.budget()), spec.horizon(), sensitivity);
    this.confidence = new DpUcbConfidence(spec, calibration.nodeSigma(), calibration.tree().depth());
    IidVectorNoise nodeNoise = IidVectorNoise.gaussian(leafLength, calibration.nodeSigma());
    this.sums = new LatticePrefixSums[spec.arms()];
    this.estimates = new ArmEstimate[spec.arms()];
    this.gram = new DMatrixRMaj(d, d);
    this.rewardVector = new double[d];
    for (int arm = 0; arm < spec.arms(); arm++) {
      KeyedNodeNoise keyed = new KeyedNodeNoise(
          noise.kind(NOISE_KIND).forStream(NOISE_PURPOSE, spec.banditId() + "/arm-" + arm), nodeNoise, lattice);
      sums[arm] = new LatticePrefixSums(lattice, ContinualPrefixSum.compact(leafLength, spec.horizon(), keyed));
      estimates[arm] = new ArmEstimate(d);
      // Before any release the statistics are zero: V = shift I, theta~ = 0 (public, no data involved).
      estimates[arm].fit(gram, rewardVector, confidence.shift(), spec.ridge());
    }
    this.leaf = new double[leafLength];
    this.zeroLeaf = new double[leafLength];
    this.releases = new double[spec.arms()][leafLength];
  }

  @Override
  public int arms() {
    return spec.arms();
  }

  @Override
  public int dimension() {
    return spec.dimension();
  }

  @Override
  public long rounds() {
    return rounds;
  }

  @Override
  public String name() {
    return "dp-ucb";
  }

  public DpUcbSpec spec() {
    return spec;
  }

  @Override
  public Decision decide(double[] context) {
    double[] x = clippedContext(context);
    double beta = confidence.width(rounds);
    int best = 0;
    double bestBound = Double.NEGATIVE_INFINITY;
    for (int arm = 0; arm < estimates.length; arm++) {
      double bound = estimates[arm].upperConfidenceBound(x, beta);
      if (bound > bestBound) {
        bestBound = bound;
        best = arm;
      }
    }
    return new Decision(best, Decision.Phase.GREEDY, rounds);
  }

  /**
   * Adds the round to every arm's tree (zero leaves for the arms not chosen) and refits every arm from
   * its new release.
   *
   * @throws IllegalStateException after T rounds
   */
  @Override
  public void update(Decision decision, double[] context, double reward) {
    double[] x = clippedContext(context);
    if (!Double.isFinite(reward)) {
      throw new IllegalArgumentException("reward must be finite, got " + reward);
    }
    if (decision.arm() >= spec.arms()) {
      throw new IllegalArgumentException("arm " + decision.arm() + " not in [0, " + spec.arms() + ")");
    }
    if (rounds == spec.horizon()) {
      throw new IllegalStateException("DP-UCB was calibrated for T = " + spec.horizon() + " rounds; all are used");
    }
    double r = Math.max(-spec.rewardBound(), Math.min(spec.rewardBound(), reward));
    ArmLeaf.pack(x, r, leaf);
    for (int arm = 0; arm < sums.length; arm++) {
      sums[arm].addAndRelease(arm == decision.arm() ? leaf : zeroLeaf, releases[arm]);
      ArmLeaf.unpack(releases[arm], gram, rewardVector);
      estimates[arm].fit(gram, rewardVector, confidence.shift(), spec.ridge());
      if (estimates[arm].repaired()) {
        repairs++;
      }
    }
    rounds++;
  }

  /** A copy scaled to ||x||_2 &lt;= L: the contexts the statistics and the bounds are defined on. */
  private double[] clippedContext(double[] context) {
    if (context.length != spec.dimension()) {
      throw new IllegalArgumentException("context has length " + context.length + ", expected " + spec.dimension());
    }
    double squaredNorm = 0;
    for (double v : context) {
      if (!Double.isFinite(v)) {
        throw new IllegalArgumentException("context must be finite: " + Arrays.toString(context));
      }
      squaredNorm += v * v;
    }
    double norm = Math.sqrt(squaredNorm);
    double[] x = context.clone();
    if (norm > spec.contextL2Bound()) {
      double scale = spec.contextL2Bound() / norm;
      for (int i = 0; i < x.length; i++) {
        x[i] *= scale;
      }
    }
    return x;
  }

  /** The (epsilon, delta) spent by the releases so far; empty before the first round. */
  public Optional<PrivacyBudget> privacySpent() {
    return rounds == 0 ? Optional.empty() : Optional.of(calibration.spentAfter(rounds));
  }

  /** A copy of arm {@code arm}'s latest released statistics (its leaves' noisy prefix sum, packed). */
  double[] releasedStatistics(int arm) {
    return releases[arm].clone();
  }

  /** The l2 change of one round's concatenated leaves (every arm's) the trees are calibrated for. */
  double leafSensitivity() {
    return sensitivity;
  }

  /** Standard deviation of each coordinate of each tree node's noise. */
  public double nodeSigma() {
    return calibration.nodeSigma();
  }

  /** 2 Upsilon + lambda, the shift added to every noisy Gram matrix. */
  public double gramShift() {
    return confidence.shift();
  }

  /** Releases after which an arm's shifted Gram matrix was not positive definite and was repaired. */
  public long positiveDefiniteRepairs() {
    return repairs;
  }

  /** A copy of arm {@code arm}'s current V = noisy Gram + shift I, for inspection and tests. */
  public DMatrixRMaj shiftedGram(int arm) {
    return estimates[arm].shiftedGram();
  }

  /** A short description with the calibration, for reports; no key material. */
  public String describe() {
    return String.format(java.util.Locale.ROOT, "dp-ucb[%s, sigma=%.4g, shift=%.4g, beta_T=%.4g]",
        calibration.accountant(), calibration.nodeSigma(), confidence.shift(), confidence.width(spec.horizon()));
  }

  @Override
  public String toString() {
    return describe() + "[rounds=" + rounds + "]";
  }
}
