package org.dpstream.core.online;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Arrays;
import org.apache.commons.rng.simple.RandomSource;
import org.apache.commons.statistics.inference.ChiSquareTest;
import org.dpstream.core.geometry.LpBall;
import org.dpstream.core.geometry.LpNorm;
import org.dpstream.core.loss.DataBounds;
import org.dpstream.core.loss.GlmLoss;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.noise.RandomBits;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;

/** DP-POFW with {@code noise: discrete}: the lattice by hand, the exact exponential mechanism's law, replay, state. */
class DpPofwDiscreteTest {

  private static final double RADIUS = 2;
  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(57));
  private static final PrivacyBudget BUDGET = new PrivacyBudget(1, 1e-5);
  private static final DataBounds WIDE = new DataBounds(1, 1);

  private static OnlineModelSpec handSpec(long horizon) {
    return new OnlineModelSpec("hand", 3, GlmLoss.squared(), LpBall.of(1, 1), BUDGET, horizon, new ClipBounds(1, 0.5),
        AccountantChoice.ZCDP, WIDE).withNoise(NoiseChoice.DISCRETE);
  }

  /**
   * L + beta D = 1.5, rounded up to C just above 1.5; horizon 8 (4 bits) leaves 30 bits, so gamma = 2^(0 + 1 - 30)
   * and B = ceil(C 2^29) = 1.5 2^29 + 1 (C exceeds 1.5 by a 2^-40 relative slack). Horizon 2^40 (41 bits) leaves
   * 61 - 41 = 20 bits: gamma = 2^-19, B = 1.5 2^19 + 1.
   */
  @Test
  void theLatticeAndItsSensitivityByHand() {
    PofwScoreLattice lattice = PofwScoreLattice.of(handSpec(8));
    assertEquals(-29, lattice.exponent());
    assertEquals(805_306_369L, lattice.bound());
    assertEquals(1_610_612_738L, lattice.sensitivity());
    assertEquals(402_653_184L, lattice.units(0.75));
    assertEquals(-1L, lattice.units(-0x1p-29));
    assertEquals(0L, lattice.units(0x1p-31));
    assertEquals(805_306_369L, lattice.units(1e300));
    assertEquals(-805_306_369L, lattice.units(Double.NEGATIVE_INFINITY));
    assertEquals(0L, lattice.units(Double.NaN));
    PofwScoreLattice long40 = PofwScoreLattice.of(handSpec(1L << 40));
    assertEquals(-19, long40.exponent());
    assertEquals(786_433L, long40.bound());
    // 2^52 (53 bits) leaves the fewest accepted, 8 bits: gamma = 2^-7, B = ceil(C 2^7) = 193; 2^53 (54 bits) is refused.
    PofwScoreLattice longest = PofwScoreLattice.of(handSpec(1L << 52));
    assertEquals(-7, longest.exponent());
    assertEquals(193L, longest.bound());
    IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class,
        () -> PofwScoreLattice.of(handSpec(1L << 53)));
    assertTrue(tooLong.getMessage().contains("too long"), tooLong.getMessage());
    OnlineModelSpec overflowing = new OnlineModelSpec("hand", 3, GlmLoss.squared(), LpBall.of(1, 1), BUDGET, 8,
        new ClipBounds(Double.MAX_VALUE, Double.MAX_VALUE), AccountantChoice.ZCDP, WIDE);
    IllegalArgumentException infinite = assertThrows(IllegalArgumentException.class,
        () -> PofwScoreLattice.of(overflowing));
    assertTrue(infinite.getMessage().startsWith("gradientClip + differenceClip must be finite"), infinite.getMessage());
  }

  /**
   * lambda_k = (epsilon_k - 2^-29) / (4B) rounded down (2^-29: the fixed-point draw's slack): never above the
   * exact quotient, and within 2^-38 of it.
   */
  @Test
  void lambdaIsTheBoundedRangeEpsilonLessTheSlackOverTwiceTheSensitivityRoundedDown() {
    ExactVertexChoice choice = ExactVertexChoice.of(handSpec(8));
    for (long k = 1; k <= 8; k++) {
      double epsilon = choice.calibration().perStepEpsilon(k);
      BigDecimal exact = new BigDecimal(epsilon).subtract(new BigDecimal(0x1p-29))
          .divide(BigDecimal.valueOf(4 * 805_306_369L), MathContext.DECIMAL128);
      BigDecimal lambda = new BigDecimal(choice.lambdaAt(k));
      assertTrue(lambda.compareTo(exact) < 0, "k=" + k);
      assertTrue(lambda.compareTo(exact.multiply(BigDecimal.valueOf(1 - 0x1p-38))) > 0, "k=" + k);
    }
    assertTrue(choice.describe().endsWith("/fixed-point-exponential-mechanism"));
  }

  /**
   * The vertex law for given unit sums: P(2j) proportional to exp(-lambda S_j), P(2j + 1) to exp(lambda S_j).
   * Sums chosen so that lambda S_j is about 0, 0.5 and -1: chi-square over the 6 vertices, 60,000 draws on a
   * fixed key, alpha = 1e-4 (a correct sampler fails with probability 1e-4 on a fresh key).
   */
  @Test
  void verticesFollowTheExponentialMechanismsLaw() {
    ExactVertexChoice choice = ExactVertexChoice.of(handSpec(8));
    long k = 3;
    double lambda = choice.lambdaAt(k);
    long[] sums = {0, Math.round(0.5 / lambda), -Math.round(1 / lambda)};
    double[] expected = new double[6];
    for (int j = 0; j < 3; j++) {
      expected[2 * j] = Math.exp(-lambda * sums[j]);
      expected[2 * j + 1] = Math.exp(lambda * sums[j]);
    }
    long[] observed = new long[6];
    long[] scratch = new long[6];
    RandomBits bits = RandomBits.of(SOURCE.forStream("pofw-law", "test").at(0, 0));
    for (int i = 0; i < 60_000; i++) {
      observed[choice.choose(sums, k, bits, scratch)]++;
    }
    double pValue = ChiSquareTest.withDefaults().test(expected, observed).getPValue();
    assertTrue(pValue >= 1e-4, "p-value " + pValue + ", observed " + Arrays.toString(observed));
    // The scratch ends holding the weights of the utilities u(2j) = -S_j, u(2j + 1) = S_j: S_0 = 0 weighs vertices
    // 0 and 1 alike, and S_2 < 0 makes vertex 4 (+r e_2) the best, weight exactly 2^62.
    assertEquals(scratch[0], scratch[1]);
    assertEquals(1L << 62, scratch[4]);
    assertTrue(scratch[5] < scratch[2] && scratch[2] < scratch[0] && scratch[0] < scratch[3], Arrays.toString(scratch));
  }

  private static OnlineModelSpec learnSpec(OnlineTestData data, String id, long horizon) {
    return data.spec(id, 1, RADIUS, 1, horizon, AccountantChoice.ZCDP).withNoise(NoiseChoice.DISCRETE);
  }

  /** The first step moves halfway to the chosen vertex, +-r e_j, whatever vertex the mechanism chose. */
  @Test
  void theFirstStepGoesHalfwayToAVertexOfTheBall() {
    OnlineTestData data = new OnlineTestData(4, 1, RADIUS, 0.05, RandomSource.XO_RO_SHI_RO_128_PP.create(8));
    OnlineEstimator estimator = OnlineEstimators.start(learnSpec(data, "pofw-first-step", 16), SOURCE);
    double[] x = data.features();
    StepOutcome outcome = estimator.step(x, data.label(x));
    assertEquals(1, outcome.step());
    assertEquals(0, outcome.epoch());
    double[] theta = estimator.parameters();
    assertEquals(1, Arrays.stream(theta).filter(v -> v != 0).count(), Arrays.toString(theta));
    assertEquals(RADIUS / 2, LpNorm.L1.valueOf(theta), 1e-12, Arrays.toString(theta));
  }

  @Test
  void learnsStaysInTheBallAndNamesItsMechanism() {
    OnlineTestData data = new OnlineTestData(10, 1, RADIUS, 0.05, RandomSource.XO_RO_SHI_RO_128_PP.create(0));
    // eps = 10, as DpPofwTest's learning test (at eps = 1 the budget per step over 20000 steps barely moves theta).
    OnlineEstimator estimator = OnlineEstimators.start(
        data.spec("pofw-exact", 1, RADIUS, 10, 20_000, AccountantChoice.ZCDP).withNoise(NoiseChoice.DISCRETE), SOURCE);
    assertEquals("dp-pofw/zcdp-cks20-exponential-mechanism/fixed-point-exponential-mechanism", estimator.mechanism());
    for (int t = 0; t < 20_000; t++) {
      double[] x = data.features();
      estimator.step(x, data.label(x));
      assertTrue(LpNorm.L1.valueOf(estimator.parameters()) <= RADIUS * (1 + 1e-12));
    }
    double ratio = data.excessRisk(estimator.parameters()) / data.excessRisk(new double[data.dimension]);
    assertTrue(ratio < 0.9, "excess risk relative to theta = 0: " + ratio);
    assertTrue(estimator.ledger().spentEpsilon() <= 10);
  }

  @Test
  void resumedAcrossEpochsTheReleasesAreBitIdenticalAndDependOnTheKey() throws IOException {
    OnlineTestData data = new OnlineTestData(6, 1, RADIUS, 0.05, RandomSource.XO_RO_SHI_RO_128_PP.create(2));
    OnlineModelSpec spec = learnSpec(data, "pofw-exact-resume", 32);
    int n = 100;
    double[] ys = new double[n];
    double[][] xs = new double[n][];
    for (int t = 0; t < n; t++) {
      xs[t] = data.features();
      ys[t] = data.label(xs[t]);
    }
    OnlineEstimator straight = OnlineEstimators.start(spec, SOURCE);
    OnlineEstimator otherKey = OnlineEstimators.start(spec, new KeyedNoiseSource(TestKeys.seeded(58)));
    double[][] expected = new double[n][];
    for (int t = 0; t < n; t++) {
      straight.step(xs[t], ys[t]);
      otherKey.step(xs[t], ys[t]);
      expected[t] = straight.parameters();
    }
    assertEquals(3, straight.epoch());
    assertFalse(Arrays.equals(straight.parameters(), otherKey.parameters()));
    for (int crash : new int[] {0, 31, 32, 33, 99}) {
      OnlineEstimator first = OnlineEstimators.start(spec, SOURCE);
      for (int t = 0; t < crash; t++) {
        first.step(xs[t], ys[t]);
      }
      OnlineEstimator resumed = OnlineEstimators.restore(spec, stateOf(first), new KeyedNoiseSource(TestKeys.seeded(57)));
      for (int t = crash; t < n; t++) {
        resumed.step(xs[t], ys[t]);
        assertArrayEquals(expected[t], resumed.parameters(), "crash after " + crash + ", step " + (t + 1));
      }
    }
  }

  private static byte[] stateBytes(OnlineEstimator estimator) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    estimator.writeState(new DataOutputStream(bytes));
    return bytes.toByteArray();
  }

  private static DataInputStream stateOf(OnlineEstimator estimator) throws IOException {
    return new DataInputStream(new ByteArrayInputStream(stateBytes(estimator)));
  }

  /** A state saved with continuous noise is refused under discrete and the other way round: the fingerprints differ. */
  @Test
  void statesOfTheOtherSamplerAreRefused() throws IOException {
    OnlineTestData data = new OnlineTestData(4, 1, RADIUS, 0.05, RandomSource.XO_RO_SHI_RO_128_PP.create(3));
    OnlineModelSpec discrete = learnSpec(data, "pofw-state", 50);
    OnlineModelSpec continuous = discrete.withNoise(NoiseChoice.CONTINUOUS);
    assertFalse(Arrays.equals(discrete.fingerprint(), continuous.fingerprint()));
    OnlineEstimator a = OnlineEstimators.start(continuous, SOURCE);
    OnlineEstimator b = OnlineEstimators.start(discrete, SOURCE);
    for (int t = 0; t < 5; t++) {
      double[] x = data.features();
      a.step(x, data.label(x));
      b.step(x, data.label(x));
    }
    assertThrows(IOException.class, () -> OnlineEstimators.restore(discrete, stateOf(a), SOURCE));
    assertThrows(IOException.class, () -> OnlineEstimators.restore(continuous, stateOf(b), SOURCE));
  }

  /** A discrete model of horizon 50 after one step, and its saved state. */
  private record SavedAfterOneStep(OnlineModelSpec spec, byte[] state) {
    static SavedAfterOneStep of(String id, long seed) throws IOException {
      OnlineTestData data = new OnlineTestData(4, 1, RADIUS, 0.05, RandomSource.XO_RO_SHI_RO_128_PP.create(seed));
      OnlineModelSpec spec = learnSpec(data, id, 50);
      OnlineEstimator estimator = OnlineEstimators.start(spec, SOURCE);
      double[] x = data.features();
      estimator.step(x, data.label(x));
      return new SavedAfterOneStep(spec, stateBytes(estimator));
    }
  }

  /**
   * A state of the earlier rejection sampler (version 2) is refused, not continued under the fixed-point law; so
   * is a state of the first fixed-point format (3), which names no noise key.
   */
  @Test
  void statesOfTheRejectionSamplerAreRefused() throws IOException {
    SavedAfterOneStep saved = SavedAfterOneStep.of("pofw-v2", 5);
    OnlineModelSpec spec = saved.spec();
    byte[] state = saved.state();
    assertEquals(5, state[0]);
    OnlineEstimators.restore(spec, new DataInputStream(new ByteArrayInputStream(state)), SOURCE);
    for (byte earlier : new byte[] {2, 3}) {
      state[0] = earlier;
      assertThrows(IOException.class,
          () -> OnlineEstimators.restore(spec, new DataInputStream(new ByteArrayInputStream(state)), SOURCE));
    }
  }

  /** A per-step epsilon at most twice the slack gets lambda = 0 (a uniform vertex, 0-bounded-range). */
  @Test
  void aPerStepEpsilonWithinTheSlackChoosesUniformly() {
    OnlineModelSpec tiny = new OnlineModelSpec("tiny", 3, GlmLoss.squared(), LpBall.of(1, 1),
        new PrivacyBudget(1e-6, 1e-6), 1L << 40, new ClipBounds(1, 0.5), AccountantChoice.ZCDP, WIDE)
        .withNoise(NoiseChoice.DISCRETE);
    ExactVertexChoice choice = ExactVertexChoice.of(tiny);
    long last = 1L << 40;
    assertTrue(choice.calibration().perStepEpsilon(last) <= 0x1p-28, "eps = " + choice.calibration().perStepEpsilon(last));
    assertEquals(0.0, choice.lambdaAt(last));
    assertTrue(ExactVertexChoice.of(handSpec(8)).lambdaAt(8) > 0);
  }

  /** The unit-noise seam swaps the continuous scores' noise; a discrete model draws none, so it is refused. */
  @Test
  void theUnitNoiseSeamRefusesADiscreteModel() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DpPofw.startWithUnitNoise(
        handSpec(8), org.dpstream.core.privacy.noise.ConstantVectorNoise.zero(6), SOURCE));
    assertTrue(e.getMessage().contains("noise: continuous"), e.getMessage());
  }

  /**
   * Each epoch's lattice sums start from zero (each sample is in one tree, which the ledger's parallel composition
   * over epochs assumes): a zero-gradient sample (x = 0) as the first of the second epoch leaves every sum at zero,
   * whatever the first epoch summed.
   */
  @Test
  void theLatticeSumsOfANewEpochHoldOnlyItsOwnSamples() throws ReflectiveOperationException {
    OnlineTestData data = new OnlineTestData(4, 1, RADIUS, 0.05, RandomSource.XO_RO_SHI_RO_128_PP.create(9));
    DpPofw model = (DpPofw) OnlineEstimators.start(learnSpec(data, "pofw-epoch-sums", 4), SOURCE);
    for (int t = 0; t < 4; t++) {
      double[] x = data.features();
      model.step(x, data.label(x));
    }
    java.lang.reflect.Field sums = DpPofw.class.getDeclaredField("unitSum");
    sums.setAccessible(true);
    assertFalse(Arrays.equals(new long[4], (long[]) sums.get(model)), "the first epoch summed something");
    model.step(new double[4], 0.5);
    assertEquals(1, model.epoch());
    assertArrayEquals(new long[4], (long[]) sums.get(model));
  }

  /**
   * A state whose epoch field disagrees with the epoch its noise binding names is corrupt: resuming it would draw
   * the noise of another epoch's positions for this epoch's samples.
   */
  @Test
  void aStateWhoseEpochDisagreesWithItsBindingIsRefused() throws IOException {
    SavedAfterOneStep saved = SavedAfterOneStep.of("pofw-epoch", 5);
    byte[] state = saved.state();
    // steps = 1, steps in the epoch = 1, epoch = 0: three big-endian longs, found once in the state.
    byte[] counters = java.nio.ByteBuffer.allocate(24).putLong(1).putLong(1).putLong(0).array();
    int at = -1;
    for (int offset = 0; offset + counters.length <= state.length; offset++) {
      if (Arrays.equals(Arrays.copyOfRange(state, offset, offset + counters.length), counters)) {
        assertEquals(-1, at, "the counters appear once");
        at = offset;
      }
    }
    assertTrue(at >= 0, "the counters are in the state");
    OnlineEstimators.restore(saved.spec(), new DataInputStream(new ByteArrayInputStream(state)), SOURCE);
    byte[] otherEpoch = state.clone();
    otherEpoch[at + 23] = 1;
    IOException refused = assertThrows(IOException.class, () -> OnlineEstimators.restore(saved.spec(),
        new DataInputStream(new ByteArrayInputStream(otherEpoch)), SOURCE));
    assertTrue(refused.getMessage().contains("corrupt DP-POFW state") && refused.getMessage().contains("epoch=1"),
        refused.getMessage());
  }

  /** A state whose lattice sum exceeds what an epoch can hold (n B) is corrupt, not resumed. */
  @Test
  void aLatticeSumBeyondTheEpochsBoundIsRefused() throws IOException {
    SavedAfterOneStep saved = SavedAfterOneStep.of("pofw-corrupt", 4);
    OnlineModelSpec spec = saved.spec();
    byte[] state = saved.state();
    // Overwrite 8 bytes at each offset in turn with 0x3FFF...F (beyond n B); at the sums' offsets the restore must
    // refuse with the lattice-sum message (other fields give other errors, not the check under test).
    DpPofw restored = (DpPofw) OnlineEstimators.restore(spec, new DataInputStream(new ByteArrayInputStream(state)), SOURCE);
    assertEquals(1, restored.steps());
    long limit = 50 * PofwScoreLattice.of(spec).bound();
    boolean corrupted = false;
    for (int offset = 0; offset + 8 <= state.length && !corrupted; offset++) {
      byte[] copy = state.clone();
      for (int b = 0; b < 8; b++) {
        copy[offset + b] = (byte) (b == 0 ? 0x3F : 0xFF);
      }
      try {
        OnlineEstimators.restore(spec, new DataInputStream(new ByteArrayInputStream(copy)), SOURCE);
      } catch (IOException e) {
        corrupted = e.getMessage() != null && e.getMessage().contains("lattice sum") && e.getMessage().contains(Long.toString(limit));
      } catch (RuntimeException e) {
        // another field hit: not the check under test
      }
    }
    assertTrue(corrupted, "no offset produced the lattice-sum refusal");
  }
}
