package org.dpstream.core.online;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpstream.core.privacy.accounting.PrivacyLedger;
import org.dpstream.core.privacy.noise.RandomBits;
import org.dpstream.core.privacy.noise.VectorNoise;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKeyRing;
import org.dpstream.core.privacy.random.NoiseStream;
import org.dpstream.core.state.NoiseLaw;
import org.dpstream.core.state.StateBindingException;
import org.dpstream.core.state.VersionedState;

/**
 * DP-POFW, Algorithm 2 of Han et al. (private polyhedral online Frank-Wolfe) for p = 1: the recursive
 * gradient d_t is kept exactly (no tree) and only the choice of vertex among the 2d vertices {+-r e_j}
 * of the l1 ball is private: by Laplace report-noisy-min as printed ({@link AccountantChoice#PAPER}), or
 * by the exponential mechanism accounted in zCDP, which spends the same budget on less noise
 * ({@link VertexChoice}). Under {@code noise: discrete} the exponential mechanism is sampled exactly over
 * integer scores: the increments are kept on a lattice ({@link PofwScoreLattice}) and the vertex drawn by
 * {@link ExactVertexChoice}; no floating-point value decides the choice (docs/privacy-layer.md).
 *
 * <p>Readings of the paper, stated because they matter for privacy:
 *
 * <ul>
 *   <li>Line 4 sets d_1 = grad f(theta_1; x_1), twice what the recursion (A.1) gives from d_0 = 0. We
 *       use the recursion, d_k = (1/(k+1)) sum_{i<=k} g_i, whose per-sample sensitivity
 *       2 (L + beta D) / (k+1) is what the scale of line 8 and the proof of Theorem 3.4 assume.
 *   <li>g_i is clipped as in DP-TOFW (gradient term to L, difference term to beta D, here in l_inf),
 *       so that sensitivity holds for any input.
 *   <li>Every later step's noisy choice depends on a sample through d, so the cost composes over the
 *       steps (advanced composition, {@link ReportNoisyMaxCalibration}). Past the horizon n the
 *       recursion restarts (k = 1, d from new samples only, theta continues): each sample is then in
 *       one composition epoch, and the event-level guarantee holds for the whole stream.
 * </ul>
 */
public final class DpPofw implements OnlineEstimator {

  /** 4: the header binds the state to its noise key and law (1 was the unbound format). */
  static final byte STATE_VERSION = 4;
  /**
   * {@code noise: discrete}: the increment sum is held in lattice units ({@code long}s). 3 was the first with the
   * vertex drawn by the fixed-point mechanism (2: the rejection sampler, refused); 5 binds the state to its noise
   * key and law.
   */
  static final byte DISCRETE_STATE_VERSION = 5;
  static final String ALGORITHM = "dp-pofw";

  private final OnlineModelSpec spec;
  /** spec.fingerprint(), once: every state written carries it. */
  private final byte[] fingerprint;
  private final VertexChoice vertexChoice;
  /** Non-null under {@code noise: discrete}: the fixed-point exponential mechanism over lattice utilities. */
  private final ExactVertexChoice exactChoice;
  /** Every release names it: built once, not at every step. */
  private final String mechanism;
  /** The lattice the increments are rounded to (the spec's own: its clamp is the sensitivity's guard). */
  private final PofwScoreLattice lattice;
  private final NoiseStream bits;
  /** The noise: the key check of each epoch's key goes into every state written. */
  private final KeyedNoiseSource source;
  /**
   * The digest of the vertex choice's noise law, computed once (at the restore that checks it, or at the first
   * state written); every state written carries it.
   */
  private byte[] law;
  private final ClippedIncrement clippedIncrement;
  private final FrankWolfeIterates iterates;
  /** sum of the clipped g_i of the current epoch: raw data. */
  private final double[] incrementSum;
  /** noise: discrete: the sum of the epoch's increments in lattice units (raw data); null otherwise. */
  private final long[] unitSum;
  private long steps;
  private long stepsInEpoch;
  private long epoch;
  private PrivacyLedger ledger;

  private final double[] increment;
  private final double[] vertexNoise;
  private final long[] utilities;
  private final long[] pendingSums;

  private DpPofw(OnlineModelSpec spec, VertexChoice vertexChoice, ExactVertexChoice exactChoice, byte[] law,
      KeyedNoiseSource source, FrankWolfeIterates iterates, double[] incrementSum, long[] unitSum, long steps, long stepsInEpoch, long epoch,
      PrivacyLedger ledger) {
    if (spec.p() != 1) {
      throw new IllegalArgumentException("DP-POFW is for p = 1; got p = " + spec.p());
    }
    if (spec.incrementClipping().isWhole() || spec.incrementClipping().isAdaptive()) {
      // Its exponential mechanism is calibrated to the per-term bounds L and beta D.
      throw new IllegalArgumentException("whole-increment clipping (clip.mode: fixed or adaptive) is for p > 1 (DP-TOFW)");
    }
    this.spec = spec;
    this.fingerprint = spec.fingerprint();
    this.vertexChoice = vertexChoice;
    this.exactChoice = exactChoice;
    this.mechanism = ALGORITHM + "/" + (exactChoice == null ? vertexChoice.describe() : exactChoice.describe());
    this.lattice = exactChoice == null ? null : PofwScoreLattice.of(spec);
    this.unitSum = unitSum;
    this.law = law;
    this.source = source;
    this.bits = bitsFor(spec, source);
    int d = spec.dimension();
    this.clippedIncrement = new ClippedIncrement(spec);
    this.iterates = iterates;
    this.incrementSum = incrementSum;
    this.steps = steps;
    this.stepsInEpoch = stepsInEpoch;
    this.epoch = epoch;
    this.ledger = ledger;
    this.increment = new double[d];
    this.vertexNoise = new double[2 * d];
    this.utilities = exactChoice == null ? null : new long[2 * d];
    this.pendingSums = exactChoice == null ? null : new long[d];
  }

  private static NoiseStream bitsFor(OnlineModelSpec spec, KeyedNoiseSource source) {
    return source.forStream("report-noisy-max", spec.modelId());
  }

  public static DpPofw start(OnlineModelSpec spec, KeyedNoiseSource source) {
    return start(spec, VertexChoice.of(spec), source);
  }

  /**
   * A model whose vertex scores get {@code unitNoise} (2d coordinates: entry 2j for +r e_j, 2j + 1 for -r e_j)
   * scaled by the calibrated scale of each step, instead of the unit Laplace / Gumbel noise of the spec's
   * accountant. The seam for tests only: {@link org.dpstream.core.privacy.noise.ConstantVectorNoise#zero} gives
   * exact Frank-Wolfe (NOT PRIVATE), a smaller noise a broken model the privacy audit must catch. The ledger
   * still reserves the calibrated cost.
   */
  public static DpPofw startWithUnitNoise(OnlineModelSpec spec, VectorNoise unitNoise, KeyedNoiseSource source) {
    if (spec.noise() == NoiseChoice.DISCRETE) {
      throw new IllegalArgumentException("the unit-noise seam replaces the continuous scores' noise; noise: discrete"
          + " draws no such noise (use noise: continuous)");
    }
    if (unitNoise.dimension() != 2 * spec.dimension()) {
      throw new IllegalArgumentException("DP-POFW scores 2d = " + 2 * spec.dimension() + " vertices, got noise of"
          + " dimension " + unitNoise.dimension());
    }
    return start(spec, VertexChoice.of(spec).withUnitNoise(unitNoise), source);
  }

  private static DpPofw start(OnlineModelSpec spec, VertexChoice choice, KeyedNoiseSource source) {
    return start(spec, choice, exactChoiceFor(spec), source);
  }

  private static ExactVertexChoice exactChoiceFor(OnlineModelSpec spec) {
    return spec.noise() == NoiseChoice.DISCRETE ? ExactVertexChoice.of(spec) : null;
  }

  /**
   * A model whose exact vertex choice is {@code exactChoice} (null: continuous), calibrated perhaps for another
   * spec than the one it learns under: the seam through which the audit's negative control runs a model whose
   * clipping (and lattice clamp) is far above the bounds its lambda was calibrated for.
   */
  static DpPofw start(OnlineModelSpec spec, VertexChoice choice, ExactVertexChoice exactChoice,
      KeyedNoiseSource source) {
    int d = spec.dimension();
    return new DpPofw(spec, choice, exactChoice, null, source,
        FrankWolfeIterates.atOrigin(d), new double[d], exactChoice == null ? null : new long[d], 0, 0, 0,
        PrivacyLedger.open(choice.calibration()));
  }

  /** The digest of the noise law of a production model of {@code spec}. */
  static byte[] lawOf(OnlineModelSpec spec) {
    return lawOf(spec, VertexChoice.of(spec), exactChoiceFor(spec));
  }

  /**
   * The digest of the noise law of the vertex choice: its description, the sampler's token, and known answers
   * (the continuous scores' perturbations, or the exact mechanism's lambda and vertex, at the epoch's first two
   * steps and its last) from the public probe source.
   */
  static byte[] lawOf(OnlineModelSpec spec, VertexChoice choice, ExactVertexChoice exactChoice) {
    NoiseLaw law = NoiseLaw.of(ALGORITHM).text("sampling", spec.noise().fingerprintToken())
        .text("choice", exactChoice == null ? choice.describe() : exactChoice.describe());
    int d = spec.dimension();
    for (long k : new long[] {1, 2, spec.horizon()}) {
      if (exactChoice == null) {
        double[] perturbations = new double[2 * d];
        choice.perturbations(NoiseLaw.probeBits(ALGORITHM + "/" + k), k, perturbations);
        law.numbers("perturbations at " + k, perturbations);
      } else {
        long[] sums = new long[d];
        for (int j = 0; j < d; j++) {
          sums[j] = (j % 3 - 1) * exactChoice.lattice().bound() * Math.min(k, 4);
        }
        law.number("lambda at " + k, exactChoice.lambdaAt(k)).number("vertex at " + k,
            exactChoice.choose(sums, k, RandomBits.of(NoiseLaw.probeBits(ALGORITHM + "/" + k)), new long[2 * d]));
      }
    }
    if (exactChoice != null) {
      law.number("lattice exponent", exactChoice.lattice().exponent()).number("lattice bound",
          exactChoice.lattice().bound());
    }
    if (spec.participations() > 1) {
      law.number("participations", spec.participations()); // only at person level: event-level laws unchanged
    }
    return law.digest();
  }

  /**
   * Resumes from {@link #writeState} under the key the state is bound to, which must be in {@code keys} (a
   * retired key hands over to the primary one at the next epoch).
   *
   * @throws StateBindingException if its key is not in {@code keys} or its noise law is not this build's
   */
  public static DpPofw restore(OnlineModelSpec spec, DataInput in, NoiseKeyRing keys) throws IOException {
    ExactVertexChoice exactChoice = exactChoiceFor(spec);
    VertexChoice choice = VertexChoice.of(spec);
    byte[] law = lawOf(spec, choice, exactChoice);
    VersionedState.Binding binding =
        StateCodec.readHeader(in, exactChoice == null ? STATE_VERSION : DISCRETE_STATE_VERSION, spec, ALGORITHM);
    KeyedNoiseSource source = binding.resume(keys, law, StateCodec.describe(ALGORITHM, spec));
    long steps = in.readLong();
    long stepsInEpoch = in.readLong();
    long epoch = in.readLong();
    if (steps < 0 || stepsInEpoch < 0 || stepsInEpoch > spec.horizon() || epoch < 0 || epoch != binding.epoch()) {
      throw new IOException("corrupt DP-POFW state: steps=" + steps + ", in epoch=" + stepsInEpoch + ", epoch=" + epoch);
    }
    int d = spec.dimension();
    FrankWolfeIterates iterates = FrankWolfeIterates.readFrom(in, d);
    double[] incrementSum = new double[d];
    long[] unitSum = null;
    if (exactChoice == null) {
      incrementSum = StateCodec.readVector(in, d);
    } else {
      unitSum = new long[d];
      long limit = spec.horizon() * PofwScoreLattice.of(spec).bound();
      for (int j = 0; j < d; j++) {
        unitSum[j] = in.readLong();
        if (Math.abs(unitSum[j]) > limit) {
          throw new IOException("corrupt DP-POFW state: lattice sum " + unitSum[j] + " beyond the epoch's bound " + limit);
        }
      }
    }
    PrivacyLedger ledger = StateCodec.readLedger(in);
    return new DpPofw(spec, choice, exactChoice, law, source, iterates, incrementSum, unitSum, steps, stepsInEpoch,
        epoch, ledger);
  }

  @Override
  public StepOutcome step(double[] features, double label) {
    SampleChecks.require(spec, features, label);
    boolean newEpoch = stepsInEpoch == spec.horizon();
    long k = newEpoch ? 1 : stepsInEpoch + 1;
    long currentEpoch = newEpoch ? epoch + 1 : epoch;
    long t = steps + 1;

    clippedIncrement.compute(iterates, features, label, k, increment);

    PrivacyLedger reserved =
        (newEpoch ? ledger.startEpoch() : ledger).reserve(vertexChoice.calibration().spentAfter(k));

    UniformRandomProvider noiseBits = bits.at(currentEpoch, k);
    double radius = spec.domain().radius();
    if (exactChoice != null) {
      return exactStep(newEpoch, k, currentEpoch, t, reserved, noiseBits, radius);
    }
    // Noisy argmin over the vertices s r e_j of the score s r d_j + noise, d = sum / (k + 1).
    vertexChoice.perturbations(noiseBits, k, vertexNoise);
    int bestCoordinate = 0;
    double bestSign = 1;
    double bestScore = Double.POSITIVE_INFINITY;
    for (int j = 0; j < increment.length; j++) {
      double previousSum = newEpoch ? 0 : incrementSum[j];
      double dj = (previousSum + increment[j]) / (k + 1);
      for (int s = 0; s < 2; s++) {
        double sign = s == 0 ? 1 : -1;
        double score = sign * radius * dj + vertexNoise[2 * j + s];
        if (score < bestScore) {
          bestScore = score;
          bestCoordinate = j;
          bestSign = sign;
        }
      }
    }

    // Commit: nothing above changed the state.
    if (newEpoch) {
      java.util.Arrays.fill(incrementSum, 0);
    }
    for (int j = 0; j < incrementSum.length; j++) {
      incrementSum[j] += increment[j];
    }
    return commit(bestCoordinate, bestSign * radius, k, currentEpoch, t, reserved);
  }

  /** The exact path: lattice units summed in {@code long}s, the vertex drawn by the exact exponential mechanism. */
  private StepOutcome exactStep(boolean newEpoch, long k, long currentEpoch, long t, PrivacyLedger reserved,
      UniformRandomProvider noiseBits, double radius) {
    long[] sums = pendingSums;
    for (int j = 0; j < sums.length; j++) {
      // |previous| <= (k - 1) B and |units| <= B with k B < 2^61: no overflow.
      sums[j] = (newEpoch ? 0 : unitSum[j]) + lattice.units(increment[j]);
    }
    int vertex = exactChoice.choose(sums, k, RandomBits.of(noiseBits), utilities);
    System.arraycopy(sums, 0, unitSum, 0, sums.length);
    return commit(vertex / 2, (vertex % 2 == 0 ? 1 : -1) * radius, k, currentEpoch, t, reserved);
  }

  private StepOutcome commit(int coordinate, double vertex, long k, long currentEpoch, long t, PrivacyLedger reserved) {
    iterates.stepTowardsAxis(coordinate, vertex, 1.0 / (t + 1));
    steps = t;
    stepsInEpoch = k;
    epoch = currentEpoch;
    ledger = reserved;
    return new StepOutcome(t, currentEpoch, clippedIncrement.gradientClipped(), clippedIncrement.differenceClipped(),
        clippedIncrement.sampleClipped());
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
    return epoch;
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

  @Override
  public void writeState(DataOutput out) throws IOException {
    if (law == null) {
      law = lawOf(spec, vertexChoice, exactChoice);
    }
    StateCodec.writeHeader(out, exactChoice == null ? STATE_VERSION : DISCRETE_STATE_VERSION, fingerprint,
        source.keyCheckAt(epoch), epoch, law);
    out.writeLong(steps);
    out.writeLong(stepsInEpoch);
    out.writeLong(epoch);
    iterates.writeTo(out);
    if (exactChoice == null) {
      StateCodec.writeVector(out, incrementSum);
    } else {
      for (long sum : unitSum) {
        out.writeLong(sum);
      }
    }
    StateCodec.writeLedger(out, ledger);
  }

  @Override
  public String toString() {
    return "DpPofw[" + spec.modelId() + ", t=" + steps + ", epoch=" + epoch + "]";
  }
}
