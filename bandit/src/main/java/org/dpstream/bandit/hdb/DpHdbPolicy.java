package org.dpstream.bandit.hdb;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Objects;
import java.util.Optional;
import org.dpstream.bandit.PrivateBandit;
import org.dpstream.bandit.Decision;
import org.dpstream.core.online.EstimatorFactory;
import org.dpstream.core.online.OnlineEstimator;
import org.dpstream.core.online.OnlineEstimators;
import org.dpstream.core.privacy.accounting.PrivacyLedger;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKeyRing;
import org.dpstream.core.state.NoiseLaw;
import org.dpstream.core.state.StateBindingException;
import org.dpstream.core.state.VersionedState;

/**
 * DP-HDB, Algorithm 3 of Han et al.: a private high-dimensional GLM bandit with one DP-POFW estimator
 * (Algorithm 2, l1 ball) per arm, split into {@link #decide} and {@link #update} because a service
 * receives the reward after the decision.
 *
 * <p><b>Rounds</b> are counted from 0 by {@link #rounds()}.
 *
 * <ul>
 *   <li>Warm-up (forced sampling), rounds [0, K t0): round s pulls arm floor(s / t0), whatever the
 *       context. Arm i's parameters at the end of its block, round (i + 1) t0, are frozen as the
 *       forced-sampling estimator theta_{t0,i}.
 *   <li>Greedy, rounds &gt;= K t0: pre-select K^ = {i : zeta(x' theta_{t0,i}) &gt; max_j zeta(x'
 *       theta_{t0,j}) - h_sub / 2} with the frozen estimators, then choose argmax over K^ of
 *       zeta(x' theta_{t,i}) with the current ones (ties to the smallest index).
 *   <li>Every round, in both phases, every arm steps: the chosen arm on the real (x, r), the others
 *       on the synthetic (0, zeta(0)). So every arm's step counter equals the round, and the released
 *       sequences do not depend on how many samples each arm got.
 * </ul>
 *
 * <p>Reading of the paper: lines 3-10 step only the pulled arm during forced sampling, with the arm's
 * own counter t = 1..t0, while line 17 steps arm i with the global t; the two indices do not agree. We
 * step every arm every round from round 0 (the synthetic update in the warm-up costs no privacy, since
 * there the pulled arm does not depend on data), which makes the step index the global round
 * throughout and keeps the arms' epochs and ledgers in lockstep. The price: arm i enters its forced
 * block after i t0 synthetic steps, whose zero gradients dilute its recursive gradient by about
 * 1/(i + 1) at the end of the block.
 *
 * <p><b>Privacy</b> (see {@link JointDpCalibration}): each arm is calibrated to (epsilon / 2, delta / 2)
 * because one user's (context, reward) can change which arm receives the real sample, so two arms'
 * streams differ between neighbours. The release of all arms' parameters is then (epsilon, delta)-DP,
 * and other users' decisions, post-processing of it plus their own contexts, are (epsilon, delta)-joint
 * DP. {@link #decide} reads only released parameters and the context it is given.
 *
 * <p>Not thread-safe.
 */
public final class DpHdbPolicy implements PrivateBandit {

  /** 2: the header binds the state to its noise key and law. */
  static final byte STATE_VERSION = 2;
  public static final String NAME = "dp-hdb";

  /**
   * The kind of the arms' noise streams ({@link KeyedNoiseSource#kind}): an arm's streams ({@code banditId/arm-i})
   * are never those of a model of that name.
   */
  public static final String NOISE_KIND = "dp-hdb/arms";

  private final DpHdbSpec spec;
  /** spec.fingerprint(), once: every state written (one per round) carries it. */
  private final byte[] fingerprint;
  private final OnlineEstimator[] arms;
  /** The arms' noise (of the arms' kind): the key check of each epoch's key goes into every state written. */
  private final KeyedNoiseSource source;
  /** The digest of the arms' noise law, computed once (at restore, or at the first state written). */
  private byte[] law;
  /** The released theta_{t,i}: a copy of each arm's parameters after its latest step. */
  private final double[][] released;
  /** theta_{t0,i}, null until arm i's forced-sampling block has ended. */
  private final double[][] forcedSampling;
  private final double[] syntheticContext;
  private final double syntheticReward;
  /** The decision rule, shared with the decider that follows the releases. */
  private final DpHdbDecisionRule rule;
  private long rounds;

  private DpHdbPolicy(DpHdbSpec spec, OnlineEstimator[] arms, KeyedNoiseSource source, byte[] law,
      double[][] forcedSampling, long rounds) {
    this.spec = spec;
    this.fingerprint = spec.fingerprint();
    this.arms = arms;
    this.source = source;
    this.law = law;
    this.forcedSampling = forcedSampling;
    this.rounds = rounds;
    this.released = new double[arms.length][];
    for (int i = 0; i < arms.length; i++) {
      released[i] = arms[i].parameters();
    }
    this.syntheticContext = new double[spec.dimension()];
    this.syntheticReward = spec.syntheticReward();
    this.rule = new DpHdbDecisionRule(spec);
  }

  /** A fresh bandit: every arm's DP-POFW at theta = 0, noise keyed by the arm's model id. */
  public static DpHdbPolicy start(DpHdbSpec spec, KeyedNoiseSource source) {
    return start(spec, source, EstimatorFactory.PRIVATE);
  }

  static DpHdbPolicy start(DpHdbSpec spec, KeyedNoiseSource source, EstimatorFactory estimators) {
    Objects.requireNonNull(source, "source");
    KeyedNoiseSource armNoise = source.kind(NOISE_KIND);
    OnlineEstimator[] arms = new OnlineEstimator[spec.arms()];
    for (int i = 0; i < arms.length; i++) {
      arms[i] = estimators.start(spec.armSpec(i), armNoise);
    }
    return new DpHdbPolicy(spec, arms, armNoise, null, new double[spec.arms()][], 0);
  }

  /** The digest of the arms' noise law: every arm runs the same law (its spec differs in the id only). */
  static byte[] lawOf(DpHdbSpec spec) {
    return NoiseLaw.of(NAME).number("arms", spec.arms()).law("arm", OnlineEstimators.noiseLaw(spec.armSpec(0)))
        .digest();
  }

  /**
   * Resumes a bandit from {@link #writeState}; a continued run releases bit-identical parameters.
   *
   * @throws IOException if the state is corrupt, of another version, or written under another spec
   */
  public static DpHdbPolicy restore(DpHdbSpec spec, DataInput in, KeyedNoiseSource source) throws IOException {
    return restore(spec, in, NoiseKeyRing.of(source));
  }

  /**
   * Resumes a bandit from {@link #writeState} under the key it is bound to, which must be in {@code keys} (a retired
   * key hands over to the primary one at the arms' next epoch).
   *
   * @throws StateBindingException if its key is not in the ring or its noise law is not this build's
   */
  public static DpHdbPolicy restore(DpHdbSpec spec, DataInput in, NoiseKeyRing keys) throws IOException {
    return restore(spec, in, keys, EstimatorFactory.PRIVATE);
  }

  static DpHdbPolicy restore(DpHdbSpec spec, DataInput in, NoiseKeyRing keys, EstimatorFactory estimators)
      throws IOException {
    String what = "DP-HDB state of bandit " + spec.banditId();
    byte[] law = lawOf(spec);
    NoiseKeyRing armKeys = keys.kind(NOISE_KIND);
    VersionedState.Binding binding = VersionedState.readHeader(in, STATE_VERSION, spec.fingerprint(), what);
    KeyedNoiseSource source = binding.resume(armKeys, law, what);
    long rounds = in.readLong();
    if (rounds < 0) {
      throw new IOException("corrupt DP-HDB state: rounds=" + rounds);
    }
    double[][] forcedSampling = new double[spec.arms()][];
    for (int i = 0; i < forcedSampling.length; i++) {
      if (forcedSamplingBlockEnded(spec, i, rounds)) {
        forcedSampling[i] = VersionedState.readVector(in, spec.dimension());
      }
    }
    OnlineEstimator[] arms = new OnlineEstimator[spec.arms()];
    for (int i = 0; i < arms.length; i++) {
      arms[i] = estimators.restore(spec.armSpec(i), in, armKeys);
      if (arms[i].steps() != rounds || arms[i].epoch() != binding.epoch()) {
        throw new IOException("corrupt DP-HDB state: arm " + i + " has " + arms[i].steps() + " steps in epoch "
            + arms[i].epoch() + ", the bandit " + rounds + " rounds in epoch " + binding.epoch());
      }
    }
    return new DpHdbPolicy(spec, arms, source, law, forcedSampling, rounds);
  }

  private static boolean forcedSamplingBlockEnded(DpHdbSpec spec, int arm, long rounds) {
    return rounds >= (arm + 1) * spec.warmUpRoundsPerArm();
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

  /** The phase the next decision is made in. */
  public Decision.Phase phase() {
    return rule.phase(rounds);
  }

  /**
   * Lines 5-6 or 12-14 of Algorithm 3 for one context: a function of the released parameters and of
   * this context only, so it changes no state and leaks nothing beyond the releases to other users.
   * The context is first clipped to the declared bound ||x||_inf &lt;= X, exactly as the arms clip it
   * when they learn from it, so any finite context gets a decision from finite scores.
   *
   * @throws IllegalArgumentException on a context of the wrong dimension or with non-finite values
   */
  @Override
  public Decision decide(double[] context) {
    return rule.decide(rounds, released, forcedSampling, context);
  }

  /**
   * Lines 7-8 or 15-17 of Algorithm 3: the real sample to the decided arm, the synthetic (0, zeta(0))
   * to every other arm, and one DP-POFW step of every arm.
   *
   * <p>The decision may come from an earlier round (a late reward): the arm it names gets the sample.
   * The arm clips the context to ||x||_inf &lt;= X and the reward to |r| &lt;= Y (the declared data
   * bounds) before it learns from them, so every finite pair is learnt.
   * All arms share one calibration and step count, so a budget refusal happens at the first arm,
   * before anything changed.
   *
   * @throws IllegalArgumentException on a decision for an unknown arm or a future round, a context of
   *     the wrong dimension or non-finite values, or a reward the link does not admit (logistic:
   *     [0, 1]); nothing changes
   * @throws org.dpstream.core.privacy.accounting.PrivacyBudgetExceededException if a step would exceed
   *     the arms' budget; nothing changes
   */
  @Override
  public void update(Decision decision, double[] context, double reward) {
    Objects.requireNonNull(decision, "decision");
    if (decision.arm() >= arms.length) {
      throw new IllegalArgumentException("decision for arm " + decision.arm() + " of a " + arms.length + "-arm bandit");
    }
    if (decision.round() > rounds) {
      throw new IllegalArgumentException("decision of round " + decision.round() + " after " + rounds + " rounds");
    }
    requireContext(context);
    if (!Double.isFinite(reward)) {
      throw new IllegalArgumentException("reward is not finite: " + reward);
    }
    spec.link().requireLabel(reward);

    for (int i = 0; i < arms.length; i++) {
      if (i == decision.arm()) {
        arms[i].step(context, reward);
      } else {
        arms[i].step(syntheticContext, syntheticReward);
      }
      released[i] = arms[i].parameters();
    }
    rounds++;
    freezeForcedSamplingEstimatorAtBlockEnd();
  }

  private void freezeForcedSamplingEstimatorAtBlockEnd() {
    long t0 = spec.warmUpRoundsPerArm();
    if (rounds <= spec.warmUpRounds() && rounds % t0 == 0) {
      int arm = (int) (rounds / t0) - 1;
      forcedSampling[arm] = released[arm].clone();
    }
  }

  /** The released theta_{t,i} of an arm (a copy). */
  public double[] armParameters(int arm) {
    return released[checkedArm(arm)].clone();
  }

  /** The frozen forced-sampling estimator theta_{t0,i} (a copy), once arm i's block has ended. */
  public Optional<double[]> forcedSamplingParameters(int arm) {
    double[] frozen = forcedSampling[checkedArm(arm)];
    return frozen == null ? Optional.empty() : Optional.of(frozen.clone());
  }

  /** Steps arm i's estimator has taken; equals {@link #rounds()} for every arm. */
  public long armSteps(int arm) {
    return arms[checkedArm(arm)].steps();
  }

  /** Arm i's own ledger, calibrated to {@link DpHdbSpec#armBudget()}. */
  public PrivacyLedger armLedger(int arm) {
    return arms[checkedArm(arm)].ledger();
  }

  /**
   * The joint privacy loss so far with respect to one user (person): the two largest arm ledgers added (the
   * min(K, 2k) largest for k rounds of one person).
   */
  @Override
  public JointPrivacyLoss privacySpent() {
    PrivacyLedger[] ledgers = new PrivacyLedger[arms.length];
    for (int i = 0; i < arms.length; i++) {
      ledgers[i] = arms[i].ledger();
    }
    return JointDpCalibration.spent(spec.budget(), spec.participations(), ledgers);
  }

  /** Each arm's mechanism as released, e.g. {@code dp-pofw/paper-thm-3.4/laplace-report-noisy-min}. */
  public String armMechanism() {
    return arms[0].mechanism();
  }

  public DpHdbSpec spec() {
    return spec;
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * Writes the state: version byte, spec fingerprint, noise binding (key check, epoch, law), rounds, the frozen forced-sampling estimators
   * of the arms whose block has ended, then each arm's DP-POFW state. It holds raw data (the arms'
   * exact gradient sums): store it with the access control of the input. No key material or noise.
   */
  @Override
  public void writeState(DataOutput out) throws IOException {
    if (law == null) {
      law = lawOf(spec);
    }
    long epoch = arms[0].epoch();
    VersionedState.writeHeader(out, STATE_VERSION, fingerprint, source.keyCheckAt(epoch), epoch, law);
    out.writeLong(rounds);
    for (int i = 0; i < arms.length; i++) {
      if (forcedSamplingBlockEnded(spec, i, rounds)) {
        VersionedState.writeVector(out, forcedSampling[i]);
      }
    }
    for (OnlineEstimator arm : arms) {
      arm.writeState(out);
    }
  }

  private void requireContext(double[] context) {
    rule.requireContext(context);
  }

  private int checkedArm(int arm) {
    if (arm < 0 || arm >= arms.length) {
      throw new IllegalArgumentException("arm must be in [0, " + arms.length + "): " + arm);
    }
    return arm;
  }

  @Override
  public String toString() {
    return "DpHdbPolicy[" + spec.banditId() + ", K=" + arms.length + ", d=" + spec.dimension() + ", rounds=" + rounds
        + ", " + phase() + "]";
  }
}
