package org.dpstream.core.online;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpstream.core.privacy.accounting.PrivacyLedger;
import org.dpstream.core.privacy.noise.VectorNoise;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseStream;

/**
 * DP-POFW, Algorithm 2 of Han et al. (private polyhedral online Frank-Wolfe) for p = 1: the recursive
 * gradient d_t is kept exactly (no tree) and only the choice of vertex among the 2d vertices {+-r e_j}
 * of the l1 ball is private: by Laplace report-noisy-min as printed ({@link AccountantChoice#PAPER}), or
 * by the exponential mechanism accounted in zCDP, which spends the same budget on less noise
 * ({@link VertexChoice}).
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

  static final byte STATE_VERSION = 1;
  static final String ALGORITHM = "dp-pofw";

  private final OnlineModelSpec spec;
  private final VertexChoice vertexChoice;
  private final NoiseStream bits;
  private final ClippedIncrement clippedIncrement;
  private final FrankWolfeIterates iterates;
  /** sum of the clipped g_i of the current epoch: raw data. */
  private final double[] incrementSum;
  private long steps;
  private long stepsInEpoch;
  private long epoch;
  private PrivacyLedger ledger;

  private final double[] increment;
  private final double[] vertexNoise;

  private DpPofw(OnlineModelSpec spec, VertexChoice vertexChoice, NoiseStream bits, FrankWolfeIterates iterates,
      double[] incrementSum, long steps, long stepsInEpoch, long epoch, PrivacyLedger ledger) {
    if (spec.p() != 1) {
      throw new IllegalArgumentException("DP-POFW is for p = 1; got p = " + spec.p());
    }
    if (spec.incrementClipping().isWhole() || spec.incrementClipping().isAdaptive()) {
      // Its exponential mechanism is calibrated to the per-term bounds L and beta D.
      throw new IllegalArgumentException("whole-increment clipping (clip.mode: fixed or adaptive) is for p > 1 (DP-TOFW)");
    }
    this.spec = spec;
    this.vertexChoice = vertexChoice;
    this.bits = bits;
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
    if (unitNoise.dimension() != 2 * spec.dimension()) {
      throw new IllegalArgumentException("DP-POFW scores 2d = " + 2 * spec.dimension() + " vertices, got noise of"
          + " dimension " + unitNoise.dimension());
    }
    return start(spec, VertexChoice.of(spec).withUnitNoise(unitNoise), source);
  }

  private static DpPofw start(OnlineModelSpec spec, VertexChoice choice, KeyedNoiseSource source) {
    int d = spec.dimension();
    return new DpPofw(spec, choice, bitsFor(spec, source), FrankWolfeIterates.atOrigin(d), new double[d], 0, 0, 0,
        PrivacyLedger.open(choice.calibration()));
  }

  public static DpPofw restore(OnlineModelSpec spec, DataInput in, KeyedNoiseSource source) throws IOException {
    StateCodec.readHeader(in, STATE_VERSION, spec, ALGORITHM);
    long steps = in.readLong();
    long stepsInEpoch = in.readLong();
    long epoch = in.readLong();
    if (steps < 0 || stepsInEpoch < 0 || stepsInEpoch > spec.horizon() || epoch < 0) {
      throw new IOException("corrupt DP-POFW state: steps=" + steps + ", in epoch=" + stepsInEpoch + ", epoch=" + epoch);
    }
    int d = spec.dimension();
    FrankWolfeIterates iterates = FrankWolfeIterates.readFrom(in, d);
    double[] incrementSum = StateCodec.readVector(in, d);
    PrivacyLedger ledger = StateCodec.readLedger(in);
    return new DpPofw(spec, VertexChoice.of(spec), bitsFor(spec, source), iterates, incrementSum, steps, stepsInEpoch,
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

    // Noisy argmin over the vertices s r e_j of the score s r d_j + noise, d = sum / (k + 1).
    UniformRandomProvider noiseBits = bits.at(currentEpoch, k);
    vertexChoice.perturbations(noiseBits, k, vertexNoise);
    double radius = spec.domain().radius();
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
    iterates.stepTowardsAxis(bestCoordinate, bestSign * radius, 1.0 / (t + 1));
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
    return ALGORITHM + "/" + vertexChoice.describe();
  }

  @Override
  public void writeState(DataOutput out) throws IOException {
    StateCodec.writeHeader(out, STATE_VERSION, spec);
    out.writeLong(steps);
    out.writeLong(stepsInEpoch);
    out.writeLong(epoch);
    iterates.writeTo(out);
    StateCodec.writeVector(out, incrementSum);
    StateCodec.writeLedger(out, ledger);
  }

  @Override
  public String toString() {
    return "DpPofw[" + spec.modelId() + ", t=" + steps + ", epoch=" + epoch + "]";
  }
}
