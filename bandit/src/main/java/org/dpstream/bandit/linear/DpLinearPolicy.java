package org.dpstream.bandit.linear;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;
import org.dpstream.bandit.PrivateBandit;
import org.dpstream.bandit.Decision;
import org.dpstream.bandit.hdb.JointPrivacyLoss;
import org.dpstream.core.geometry.LpNorm;
import org.dpstream.core.geometry.NormClipper;
import org.dpstream.core.online.OnlineModelSpec;
import org.dpstream.core.online.PrefixSumPlan;
import org.dpstream.core.online.TreeNoisePlan;
import org.dpstream.core.privacy.PrivatePrefixSums;
import org.dpstream.core.privacy.accounting.PrivacyLedger;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKeyRing;
import org.dpstream.core.state.NoiseLaw;
import org.dpstream.core.state.StateBindingException;
import org.dpstream.core.privacy.tree.Lattice;
import org.dpstream.core.state.VersionedState;

/**
 * DP-Linear: a joint-DP linear contextual bandit on privately released per-arm sufficient statistics
 * (Shariff and Sheffet 2018), deciding greedily on per-arm ridge regression.
 *
 * <ul>
 *   <li><b>Learn.</b> A round's (x, r - m) is scaled jointly so ||x||_2 &lt;= c, the reward clipped to [-B, B],
 *       and (svec(x x'), x r) added to the chosen arm's pending leaf (exact lattice units). Every k
 *       rounds every arm's pending leaf (zero for arms not chosen) goes through the arm's prefix-sum
 *       mechanism ({@link DpLinearSpec#plan()}: Gaussian tree or factorization, keyed noise), and theta_k =
 *       (G_k + lambda I)^-1 b_k is solved once from the released G_k, b_k ({@link RidgeWeight}).
 *   <li><b>Decide.</b> {@link LinearDecisionRule#greedyArm} on the cached theta_k: O(K d), reads only the
 *       release and the context.
 *   <li><b>Privacy.</b> Every arm's mechanism is calibrated to the whole budget: one user changes at most
 *       two arms' leaves at one release, by a total l2 norm of at most Delta, which is the sensitivity each
 *       arm's mechanism is calibrated for (see the package documentation). One ledger accounts the release of
 *       all arms.
 * </ul>
 *
 * <p>State O(K d^2). Not thread-safe.
 */
public final class DpLinearPolicy implements PrivateBandit {

/** 3: the header binds the state to its noise key and law (2: the statistics in packed symmetric form). */
  static final byte STATE_VERSION = 3;
  public static final String NAME = "dp-linear";

  /**
   * The kind of the statistics' noise streams ({@link KeyedNoiseSource#kind}): arm i's stream
   * ({@code banditId/arm-i/stats}) is never that of a model of that name.
   */
  public static final String NOISE_KIND = "dp-linear/statistics";

  /** Contributions are clipped a hair inside C so that lattice rounding keeps them within C. */
  private static final double CONTRIBUTION_MARGIN = 1 - 0x1p-20;

  private final DpLinearSpec spec;
  /** spec.fingerprint(), once: every state written (one per round) carries it. */
  private final byte[] fingerprint;
  /** False only in the audit's negative control: contributions enter unscaled and unclipped. */
  private final boolean clipping;
  private final PrefixSumPlan plan;
  /** The statistics' noise (of their kind): the key check of each epoch's key goes into every state written. */
  private final KeyedNoiseSource source;
  /** The digest of the statistics' noise law, computed once (at restore, or at the first state written). */
  private byte[] law;
  private final PrivatePrefixSums[] statistics;
  private final long[][] pendingUnits;
  private final double[][] theta;
  private final Lattice lattice;
  private final NormClipper contributionClipper;
  private final RidgeSolver solver;
  private final double[] scaledContext;
  private final double[] contribution;
  private final double[] leaf;
  /** The last released statistics of each arm (the private release itself; theta is computed from it). */
  private final double[][] released;
  private final double[] gram;
  private final double[] moment;
  private PrivacyLedger ledger;
  private long rounds;
  private long ridgeEpoch = -1;
  private double ridgeWeight;

  private DpLinearPolicy(DpLinearSpec spec, PrefixSumPlan plan, KeyedNoiseSource source, byte[] law,
      PrivatePrefixSums[] statistics, long[][] pendingUnits, double[][] theta, PrivacyLedger ledger, long rounds,
      boolean clipping) {
    this.spec = spec;
    this.source = source;
    this.law = law;
    this.fingerprint = spec.fingerprint();
    this.clipping = clipping;
    this.plan = plan;
    this.statistics = statistics;
    this.pendingUnits = pendingUnits;
    this.theta = theta;
    this.ledger = ledger;
    this.rounds = rounds;
    OnlineModelSpec streamSpec = spec.statisticsSpec(0);
    this.lattice = TreeNoisePlan.latticeFor(streamSpec);
    this.contributionClipper = NormClipper.of(LpNorm.L2, spec.leafBound() * CONTRIBUTION_MARGIN);
    int d = spec.dimension();
    int m = spec.leafDimension();
    this.solver = new RidgeSolver(d);
    this.scaledContext = new double[d];
    this.contribution = new double[m];
    this.leaf = new double[m];
    this.released = new double[spec.arms()][m];
    this.gram = new double[d * d];
    this.moment = new double[d];
  }

  /** A fresh bandit: nothing released, every theta_k = 0, noise keyed by each arm's statistics stream id. */
  public static DpLinearPolicy start(DpLinearSpec spec, KeyedNoiseSource source) {
    return start(spec, spec.plan(), source, true);
  }

  /** Test seam: a fresh bandit on a given plan, with or without clipping (the audit's negative control). */
  static DpLinearPolicy start(DpLinearSpec spec, PrefixSumPlan plan, KeyedNoiseSource source, boolean clipping) {
    Objects.requireNonNull(source, "source");
    KeyedNoiseSource statisticsNoise = source.kind(NOISE_KIND);
    PrivatePrefixSums[] statistics = new PrivatePrefixSums[spec.arms()];
    for (int arm = 0; arm < statistics.length; arm++) {
      statistics[arm] = plan.start(spec.statisticsSpec(arm), statisticsNoise);
    }
    return new DpLinearPolicy(spec, plan, statisticsNoise, null, statistics, new long[spec.arms()][spec.leafDimension()],
        new double[spec.arms()][spec.dimension()], PrivacyLedger.open(plan.calibration()), 0, clipping);
  }

  /**
   * Resumes a bandit from {@link #writeState}; a continued run releases bit-identical statistics.
   *
   * @throws IOException if the state is corrupt, of another version, or written under another spec
   */
  public static DpLinearPolicy restore(DpLinearSpec spec, DataInput in, KeyedNoiseSource source) throws IOException {
    return restore(spec, in, NoiseKeyRing.of(source));
  }

  /** The digest of the statistics' noise law: the plan's, for every arm's statistics spec alike. */
  static byte[] lawOf(DpLinearSpec spec, PrefixSumPlan plan) {
    NoiseLaw law = NoiseLaw.of(NAME).law("statistics", plan.noiseLaw(spec.statisticsSpec(0)));
    // Named only at person level, so the laws (and saved states) of event-level bandits are unchanged.
    return (spec.participations() > 1 ? law.number("participations", spec.participations()) : law).digest();
  }

  /**
   * Resumes a bandit from {@link #writeState} under the key it is bound to, which must be in {@code keys} (a retired
   * key hands over to the primary one at the statistics' next epoch).
   *
   * @throws StateBindingException if its key is not in the ring or its noise law is not this build's
   */
  public static DpLinearPolicy restore(DpLinearSpec spec, DataInput in, NoiseKeyRing keys) throws IOException {
    String what = "DP-Linear state of bandit " + spec.banditId();
    PrefixSumPlan plan = spec.plan();
    byte[] law = lawOf(spec, plan);
    VersionedState.Binding binding = VersionedState.readHeader(in, STATE_VERSION, spec.fingerprint(), what);
    KeyedNoiseSource source = binding.resume(keys.kind(NOISE_KIND), law, what);
    long rounds = in.readLong();
    if (rounds < 0) {
      throw new IOException("corrupt DP-Linear state: rounds=" + rounds);
    }
    PrivacyLedger ledger = PrivacyLedger.readFrom(in);
    double[][] theta = new double[spec.arms()][];
    for (int arm = 0; arm < theta.length; arm++) {
      theta[arm] = VersionedState.readVector(in, spec.dimension());
    }
    long[][] pending = new long[spec.arms()][spec.leafDimension()];
    for (long[] armPending : pending) {
      for (int i = 0; i < armPending.length; i++) {
        armPending[i] = in.readLong();
      }
    }
    PrivatePrefixSums[] statistics = new PrivatePrefixSums[spec.arms()];
    long releases = rounds / spec.refreshEvery();
    for (int arm = 0; arm < statistics.length; arm++) {
      statistics[arm] = plan.restore(spec.statisticsSpec(arm), in, source);
      if (statistics[arm].totalSteps() != releases || statistics[arm].epoch() != binding.epoch()) {
        throw new IOException("corrupt DP-Linear state: arm " + arm + " has " + statistics[arm].totalSteps()
            + " releases in epoch " + statistics[arm].epoch() + ", " + rounds + " rounds make " + releases
            + " in epoch " + binding.epoch());
      }
    }
    return new DpLinearPolicy(spec, plan, source, law, statistics, pending, theta, ledger, rounds, true);
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

  /** Releases so far. */
  public long step() {
    return statistics[0].totalSteps();
  }

  /**
   * The greedy arm for the context from the current release ({@link LinearDecisionRule}); changes nothing.
   *
   * @throws IllegalArgumentException on a context of the wrong dimension or with non-finite values
   */
  @Override
  public Decision decide(double[] context) {
    requireContext(context);
    return new Decision(LinearDecisionRule.greedyArm(theta, step(), context), Decision.Phase.GREEDY, rounds);
  }

  /**
   * One round: the clipped contribution of (x, r) to the decided arm's pending leaf; every k-th round
   * releases every arm's statistics and refreshes theta. The decision may come from an earlier round (a
   * late reward). Any finite (x, r) is learnt.
   *
   * @throws IllegalArgumentException on a decision for an unknown arm or a future round, a context of the
   *     wrong dimension or non-finite values, or a non-finite reward; nothing changes
   * @throws org.dpstream.core.privacy.accounting.PrivacyBudgetExceededException if the release would exceed
   *     the budget; nothing changes
   */
  @Override
  public void update(Decision decision, double[] context, double reward) {
    Objects.requireNonNull(decision, "decision");
    if (decision.arm() >= spec.arms()) {
      throw new IllegalArgumentException("decision for arm " + decision.arm() + " of a " + spec.arms() + "-arm bandit");
    }
    if (decision.round() > rounds) {
      throw new IllegalArgumentException("decision of round " + decision.round() + " after " + rounds + " rounds");
    }
    requireContext(context);
    if (!Double.isFinite(reward)) {
      throw new IllegalArgumentException("reward is not finite: " + reward);
    }
    boolean releasing = (rounds + 1) % spec.refreshEvery() == 0;
    PrivacyLedger reserved = releasing ? reserveNextRelease() : null;
    addContribution(decision.arm(), context, reward);
    rounds++;
    if (releasing) {
      releaseStatistics();
      ledger = reserved;
    }
  }

  private PrivacyLedger reserveNextRelease() {
    long inEpoch = statistics[0].stepsInEpoch();
    boolean newEpoch = inEpoch == spec.releasesPerEpoch();
    long stepInEpoch = newEpoch ? 1 : inEpoch + 1;
    return (newEpoch ? ledger.startEpoch() : ledger).reserve(plan.calibration().spentAfter(stepInEpoch));
  }

  private void addContribution(int arm, double[] context, double reward) {
    if (!clipping) {
      SufficientStatistics.contribution(context, reward, contribution);
    } else {
      double norm = LpNorm.L2.valueOf(context);
      double scale = norm > spec.contextClip() ? spec.contextClip() / norm : 1;
      for (int j = 0; j < scaledContext.length; j++) {
        scaledContext[j] = context[j] * scale;
      }
      double scaledReward = Math.max(-spec.rewardClip(), Math.min(spec.rewardClip(),
          (reward - spec.rewardCenter()) * scale));
      SufficientStatistics.contribution(scaledContext, scaledReward, contribution);
      contributionClipper.clipInPlace(contribution);
    }
    long[] pending = pendingUnits[arm];
    for (int i = 0; i < pending.length; i++) {
      pending[i] = Math.addExact(pending[i], lattice.toUnits(contribution[i]));
    }
  }

  private void releaseStatistics() {
    int d = spec.dimension();
    for (int arm = 0; arm < statistics.length; arm++) {
      // Exact: the pending sums are integers below 2^52 lattice units (DpLinearSpec bounds refreshEvery so).
      lattice.toValues(pendingUnits[arm], leaf);
      statistics[arm].addAndRelease(leaf, released[arm]);
      Arrays.fill(pendingUnits[arm], 0);
      SufficientStatistics.gram(released[arm], d, gram);
      SufficientStatistics.moment(released[arm], d, moment);
      solver.solve(gram, moment, ridgeWeight(statistics[arm].epoch()), theta[arm]);
    }
  }

  private double ridgeWeight(long epoch) {
    if (epoch != ridgeEpoch) {
      ridgeWeight = RidgeWeight.of(spec, plan, epoch);
      ridgeEpoch = epoch;
    }
    return ridgeWeight;
  }

  /** The current release: per-arm theta_k and the step, for publication. */
  public DpLinearRelease currentRelease() {
    double[][] copies = new double[theta.length][];
    for (int arm = 0; arm < theta.length; arm++) {
      copies[arm] = theta[arm].clone();
    }
    long step = step();
    return new DpLinearRelease(step, step * spec.refreshEvery(), copies);
  }

  /** The released theta_k of an arm (a copy). */
  public double[] armParameters(int arm) {
    if (arm < 0 || arm >= theta.length) {
      throw new IllegalArgumentException("arm must be in [0, " + theta.length + "): " + arm);
    }
    return theta[arm].clone();
  }

  /** Arm i's last released statistics (svec(G), b), a copy; zeros before the first release and after a restore. */
  double[] releasedStatistics(int arm) {
    return released[arm].clone();
  }

  /** The ledger of the release of all arms' statistics (the joint loss; see the package documentation). */
  public PrivacyLedger ledger() {
    return ledger;
  }

  /** The joint privacy loss so far with respect to one user. */
  @Override
  public JointPrivacyLoss privacySpent() {
    return new JointPrivacyLoss(ledger.spentEpsilon(), ledger.spentDelta(), spec.budget());
  }

  /** The mechanism as released, e.g. {@code dp-linear/zcdp-cks20/gaussian(...)/clip(l2, C=...)/k=10}. */
  public String mechanism() {
    return NAME + "/" + plan.describe() + "/svec/clip(l2, c=" + spec.contextClip() + ", m=" + spec.rewardCenter()
        + ", B=" + spec.rewardClip()
        + ", C=" + spec.leafBound() + ", H=" + spec.halfSensitivity() + ")/k=" + spec.refreshEvery();
  }

  /** The ridge weight of the current epoch. */
  public double currentRidgeWeight() {
    return RidgeWeight.of(spec, plan, statistics[0].epoch());
  }

  public DpLinearSpec spec() {
    return spec;
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * Writes the state: version byte, spec fingerprint, noise binding (key check, epoch, law), rounds, ledger, the released theta_k, the pending
   * leaves (raw data) and each arm's prefix-sum state (exact sums: raw data). Store it with the access
   * control of the input. No key material or noise.
   */
  @Override
  public void writeState(DataOutput out) throws IOException {
    if (law == null) {
      law = lawOf(spec, plan);
    }
    long epoch = statistics[0].epoch();
    VersionedState.writeHeader(out, STATE_VERSION, fingerprint, source.keyCheckAt(epoch), epoch, law);
    out.writeLong(rounds);
    ledger.writeTo(out);
    for (double[] armTheta : theta) {
      VersionedState.writeVector(out, armTheta);
    }
    for (long[] pending : pendingUnits) {
      for (long units : pending) {
        out.writeLong(units);
      }
    }
    for (PrivatePrefixSums armStatistics : statistics) {
      armStatistics.writeTo(out);
    }
  }

  private void requireContext(double[] context) {
    PrivateBandit.requireContext(context, spec.dimension(), spec.banditId());
  }

  @Override
  public String toString() {
    return "DpLinearPolicy[" + spec.banditId() + ", K=" + spec.arms() + ", d=" + spec.dimension() + ", rounds=" + rounds
        + ", step=" + step() + "]";
  }
}
