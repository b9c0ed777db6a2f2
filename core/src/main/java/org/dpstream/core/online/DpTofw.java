package org.dpstream.core.online;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.dpstream.core.privacy.PrivatePrefixSums;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.PrivacyLedger;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKeyRing;
import org.dpstream.core.state.NoiseLaw;
import org.dpstream.core.state.StateBindingException;
import org.dpstream.core.state.VersionedState;

/**
 * DP-TOFW, Algorithm 1 of Han et al. (private tree-based online Frank-Wolfe) for 1 &lt; p &lt;= inf.
 *
 * <p>At step t (1-based, over all epochs) with sample x_t:
 *
 * <pre>
 *   g_t   = clip_L(grad f(theta_t; x_t)) + clip_{beta D}(t (grad f(theta_t; x_t) - grad f(theta_{t-1}; x_t)))
 *   G~_t  = noisy prefix sum of g_1..g_t ({@link PrivatePrefixSums}: tree aggregation or factorization)
 *   d_t   = G~_t / (t + 1)
 *   v_t   = argmin_{||v||_p <= r} &lt;d_t, v&gt;
 *   theta_{t+1} = theta_t + (v_t - theta_t) / (t + 1)          released
 * </pre>
 *
 * with theta_0 = theta_1 = 0. Without clipping, g_t is eq. (3.1) and d_t the recursive gradient
 * (A.1). Clipping both terms separately in the dual norm keeps ||g_t||_q <= L + beta D for any input,
 * which is what the accounting assumes (proof of Theorem 3.1); for data within the declared bounds
 * nothing is clipped. theta_t and theta_{t-1} depend on the data only through earlier releases, so
 * each sample enters the released sequence only through its own leaf (the adaptive argument of the
 * paper's Theorem 3.1).
 *
 * <p>With adaptive clipping ({@link AdaptiveClipPlan}) g_t is clipped as a whole to a threshold that follows a
 * private estimate of a quantile of ||g_t||_2; the model's first block is a warm-up whose samples only set the
 * first threshold (the parameters stay 0), and the algorithm's step counter k = t - (warm-up length) starts
 * after it, with theta_1 = theta_0 = 0.
 *
 * <p>The prefix sums come from the tree (Algorithm 5, O(d) state) or, on request, the square-root
 * factorization ({@link PrefixSumPlan}). State is O(d): theta_t, theta_{t-1} and the mechanism's O(d)
 * snapshot; the noise is regenerated from the key. Past the horizon a new epoch starts.
 */
public final class DpTofw implements OnlineEstimator {

  /** 2: the header binds the state to its noise key and law ({@link org.dpstream.core.state.VersionedState}). */
  static final byte STATE_VERSION = 2;
  static final String ALGORITHM = "dp-tofw";

  private final OnlineModelSpec spec;
  /** spec.fingerprint(), once: every state written carries it. */
  private final byte[] fingerprint;
  private final PrefixSumPlan plan;
  /** Every release names it: built once, not at every step (its thresholds' decimal forms cost). */
  private final String mechanism;
  /** The noise: the key check of each epoch's key goes into every state written. */
  private final KeyedNoiseSource source;
  /**
   * The digest of the plan's noise law, computed once (at the restore that checks it, or at the first state written:
   * a model that never saves, as in the audits, never pays for its known answers); every state written carries it.
   */
  private byte[] law;
  private final PrivatePrefixSums prefixSums;
  private final AdaptiveClipPrefixSums adaptive; // the same object as prefixSums when clip.mode is adaptive, else null
  private final ClippedIncrement clippedIncrement;
  private final FrankWolfeIterates iterates;
  private long steps;
  private PrivacyLedger ledger;

  // Scratch buffers: a step allocates nothing.
  private final double[] increment;
  private final double[] direction;
  private final double[] vertex;

  private DpTofw(OnlineModelSpec spec, PrefixSumPlan plan, byte[] law, KeyedNoiseSource source,
      PrivatePrefixSums prefixSums, FrankWolfeIterates iterates, long steps, PrivacyLedger ledger) {
    if (!(spec.p() > 1)) {
      throw new IllegalArgumentException("DP-TOFW needs p > 1; use DP-POFW for p = 1 (got p = " + spec.p() + ")");
    }
    this.spec = spec;
    this.fingerprint = spec.fingerprint();
    this.plan = plan;
    this.mechanism = ALGORITHM + "/" + plan.describe() + "/"
        + spec.incrementClipping().describe(plan.clipNorm(), spec.clipBounds());
    this.law = law;
    this.source = source;
    this.prefixSums = prefixSums;
    this.adaptive = prefixSums instanceof AdaptiveClipPrefixSums sums ? sums : null;
    this.clippedIncrement = new ClippedIncrement(spec, plan.clipNorm());
    this.iterates = iterates;
    this.steps = steps;
    this.ledger = ledger;
    int d = spec.dimension();
    this.increment = new double[d];
    this.direction = new double[d];
    this.vertex = new double[d];
  }

  /** A fresh model whose noise comes from {@code source} under the model id. */
  public static DpTofw start(OnlineModelSpec spec, KeyedNoiseSource source) {
    return start(spec, PrefixSumPlan.choose(spec), source);
  }

  /**
   * Test seam: a fresh model on the given prefix sums (e.g. a tree without noise, to check the optimiser alone).
   * Its states name the public probe key ({@link NoiseLaw#probeSource}), which no process resumes them with.
   */
  static DpTofw start(OnlineModelSpec spec, PrefixSumPlan plan, PrivatePrefixSums prefixSums) {
    return new DpTofw(spec, plan, null, NoiseLaw.probeSource(), prefixSums,
        FrankWolfeIterates.atOrigin(spec.dimension()), 0, PrivacyLedger.open(plan.calibration()));
  }

  /** Test seam: a fresh model on a plan its spec may not choose (e.g. the tree where AUTO picks the BLT). */
  static DpTofw start(OnlineModelSpec spec, PrefixSumPlan plan, KeyedNoiseSource source) {
    return new DpTofw(spec, plan, null, source, plan.start(spec, source),
        FrankWolfeIterates.atOrigin(spec.dimension()), 0, PrivacyLedger.open(plan.calibration()));
  }

  /** The digest of the noise law of a model of {@code spec} on {@code plan}. */
  static byte[] lawOf(OnlineModelSpec spec, PrefixSumPlan plan) {
    NoiseLaw law = NoiseLaw.of(ALGORITHM).law("prefix sums", plan.noiseLaw(spec));
    // Named only at person level, so the laws (and saved states) of event-level models are unchanged.
    return (spec.participations() > 1 ? law.number("participations", spec.participations()) : law).digest();
  }

  /** Resumes from {@link #writeState} under its own key, which must be {@code source}'s. */
  public static DpTofw restore(OnlineModelSpec spec, DataInput in, KeyedNoiseSource source) throws IOException {
    return restore(spec, in, NoiseKeyRing.of(source));
  }

  /**
   * Resumes from {@link #writeState}; the noise is regenerated under the key the state is bound to, which must be
   * in {@code keys} (a retired key hands over to the primary one at the next epoch).
   *
   * @throws StateBindingException if its key is not in {@code keys} or its noise law is not this build's
   */
  public static DpTofw restore(OnlineModelSpec spec, DataInput in, NoiseKeyRing keys) throws IOException {
    PrefixSumPlan plan = PrefixSumPlan.choose(spec);
    byte[] law = ChosenPlans.law(spec, plan, ALGORITHM, () -> lawOf(spec, plan));
    VersionedState.Binding binding = StateCodec.readHeader(in, STATE_VERSION, spec, ALGORITHM);
    KeyedNoiseSource source = binding.resume(keys, law, StateCodec.describe(ALGORITHM, spec));
    long steps = in.readLong();
    FrankWolfeIterates iterates = FrankWolfeIterates.readFrom(in, spec.dimension());
    PrivacyLedger ledger = StateCodec.readLedger(in);
    if (!ledger.accountant().equals(plan.calibration().accountant())) {
      // e.g. accountant: auto resolved to another mechanism by another build: its state is not this plan's
      throw new IOException("DP-TOFW state of model " + spec.modelId() + " was written under accountant "
          + ledger.accountant() + ", this build chose " + plan.calibration().accountant());
    }
    PrivatePrefixSums prefixSums = plan.restore(spec, in, source);
    if (prefixSums.totalSteps() != steps || prefixSums.epoch() != binding.epoch()) {
      throw new IOException("inconsistent DP-TOFW state: " + steps + " steps in epoch " + binding.epoch()
          + " but the prefix sums hold " + prefixSums.totalSteps() + " in epoch " + prefixSums.epoch());
    }
    return new DpTofw(spec, plan, law, source, prefixSums, iterates, steps, ledger);
  }

  @Override
  public StepOutcome step(double[] features, double label) {
    SampleChecks.require(spec, features, label);
    long t = steps + 1;
    if (adaptive != null && adaptive.warmingUp()) {
      return warmUpStep(features, label, t);
    }
    // k: the algorithm's step; adaptive clipping starts the algorithm after its warm-up (theta still 0).
    long k = adaptive != null ? t - adaptive.warmUpSteps() : t;
    if (adaptive != null) {
      clippedIncrement.setWholeThreshold(adaptive.threshold());
    }
    clippedIncrement.compute(iterates, features, label, k, increment);

    // The budget is checked before anything is released; the ledger is committed with the step.
    boolean newEpoch = prefixSums.stepsInEpoch() == spec.horizon();
    long stepInEpoch = newEpoch ? 1 : prefixSums.stepsInEpoch() + 1;
    PrivacyBudget cost = adaptive != null ? adaptive.costOfNextStep() : plan.calibration().spentAfter(stepInEpoch);
    PrivacyLedger reserved = (newEpoch ? ledger.startEpoch() : ledger).reserve(cost);

    if (adaptive != null) {
      adaptive.recordNorm(clippedIncrement.wholeNorm());
    }
    prefixSums.addAndRelease(increment, direction);
    double scale = 1.0 / (k + 1);
    for (int i = 0; i < direction.length; i++) {
      direction[i] *= scale;
    }
    spec.domain().minimizeLinear(direction, vertex);
    iterates.stepTowards(vertex, Math.min(1, spec.learningRate() / (k + 1)));
    steps = t;
    ledger = reserved;
    return new StepOutcome(t, prefixSums.epoch(), clippedIncrement.gradientClipped(), clippedIncrement.differenceClipped(),
        clippedIncrement.sampleClipped(), adaptive != null ? adaptive.releasedClipRate() : Double.NaN);
  }

  /**
   * A step of adaptive clipping's warm-up: the sample's increment at theta = 0 only goes into the first
   * histogram of norms (whose release is reserved here); the parameters stay 0.
   */
  private StepOutcome warmUpStep(double[] features, double label, long t) {
    clippedIncrement.compute(iterates, features, label, 1, increment);
    PrivacyLedger reserved = ledger.reserve(adaptive.costOfNextStep());
    adaptive.warmUp(clippedIncrement.wholeNorm());
    steps = t;
    ledger = reserved;
    return new StepOutcome(t, prefixSums.epoch(), clippedIncrement.gradientClipped(), false,
        clippedIncrement.sampleClipped(), adaptive.releasedClipRate());
  }

  @Override
  public OnlineModelSpec spec() {
    return spec;
  }

  @Override
  public long steps() {
    return steps;
  }

  @Override
  public long epoch() {
    return prefixSums.epoch();
  }

  @Override
  public double[] parameters() {
    return iterates.current().clone();
  }

  @Override
  public PrivacyLedger ledger() {
    return ledger;
  }

  @Override
  public String mechanism() {
    return mechanism;
  }

  /** Test seam: the threshold adaptive clipping holds for the next increment (a function of released values). */
  double adaptiveThreshold() {
    return adaptive.threshold();
  }

  /** Test seam: d_t of the latest step, the noisy recursive gradient the LMO saw. */
  double[] lastDirection() {
    return direction.clone();
  }

  /** The plan the spec selected (which accountant AUTO chose, the noise scale). */
  public PrefixSumPlan plan() {
    return plan;
  }

  @Override
  public void writeState(DataOutput out) throws IOException {
    long epoch = prefixSums.epoch();
    if (law == null) {
      law = ChosenPlans.law(spec, plan, ALGORITHM, () -> lawOf(spec, plan));
    }
    StateCodec.writeHeader(out, STATE_VERSION, fingerprint, source.keyCheckAt(epoch), epoch, law);
    out.writeLong(steps);
    iterates.writeTo(out);
    StateCodec.writeLedger(out, ledger);
    prefixSums.writeTo(out);
  }

  @Override
  public String toString() {
    return "DpTofw[" + spec.modelId() + ", t=" + steps + ", epoch=" + epoch() + ", " + plan.describe() + "]";
  }
}
