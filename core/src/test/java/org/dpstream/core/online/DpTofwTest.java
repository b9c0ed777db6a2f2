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
import java.nio.ByteBuffer;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.privacy.accounting.ZcdpBudget;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.testing.ConstantNodeNoise;
import org.dpstream.core.privacy.testing.TestKeys;
import org.dpstream.core.state.VersionedState;
import org.junit.jupiter.api.Test;

class DpTofwTest {

  private static final double RADIUS = 2;
  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(77));

  private static DpTofw noiseless(OnlineModelSpec spec) {
    TreeNoisePlan plan = TreeNoisePlan.choose(spec);
    return DpTofw.start(spec, plan, plan.withNodeNoise(spec, new ConstantNodeNoise(0)));
  }

  /**
   * Noise off, strongly convex population loss with an interior optimum (Assumption 3.1): Theorem 3.3
   * gives excess risk O(1/t), against O(1/sqrt(t)) in the merely convex case. The slope of log excess
   * against log t over t in [250, 16000], averaged over 4 seeds, must be below -0.75, which the convex
   * rate (-0.5) cannot meet.
   */
  @Test
  void withoutNoiseItConvergesAtTheStronglyConvexRate() {
    int[] checkpoints = {250, 500, 1000, 2000, 4000, 8000, 16000};
    double[] meanLogExcess = new double[checkpoints.length];
    int seeds = 4;
    for (int seed = 0; seed < seeds; seed++) {
      OnlineTestData data = new OnlineTestData(5, 1.5, RADIUS, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(seed));
      DpTofw estimator = noiseless(data.spec("convergence", 1.5, RADIUS, 1, 1 << 20, AccountantChoice.ZCDP));
      for (int t = 1, k = 0; t <= checkpoints[checkpoints.length - 1]; t++) {
        double[] x = data.features();
        estimator.step(x, data.label(x));
        if (t == checkpoints[k]) {
          meanLogExcess[k++] += Math.log(data.excessRisk(estimator.parameters())) / seeds;
        }
      }
    }
    double slope = leastSquaresSlope(checkpoints, meanLogExcess);
    assertTrue(slope < -0.75, "log-log slope of the excess risk: " + slope);
  }

  /**
   * (A.1): the tree's noise-free prefix sum divided by t + 1 is the recursive gradient
   * d_t = grad f(theta_t) + (1 - 1/(t+1)) (d_{t-1} - grad f(theta_{t-1})). The recursion runs by hand
   * on the estimator's own theta sequence. Each leaf is rounded to the lattice by at most gamma / 2 per
   * coordinate, so sum / (t+1) differs from the exact recursion by at most gamma / 2 (plus the
   * recursion's own floating-point error, far below).
   */
  @Test
  void treePrefixSumOverTPlusOneIsTheRecursiveGradient() {
    OnlineTestData data = new OnlineTestData(4, 3, RADIUS, 0.05, RandomSource.XO_RO_SHI_RO_128_PP.create(9));
    OnlineModelSpec spec = data.spec("identity", 3, RADIUS, 1, 1 << 20, AccountantChoice.ZCDP);
    DpTofw estimator = noiseless(spec);
    double tolerance = TreeNoisePlan.latticeFor(spec).granularity() / 2 + 1e-12;
    int d = data.dimension;
    double[] theta = new double[d];
    double[] previous = new double[d];
    double[] recursive = new double[d];
    double[] gradNow = new double[d];
    double[] gradBefore = new double[d];
    for (int t = 1; t <= 3000; t++) {
      double[] x = data.features();
      double y = data.label(x);
      spec.loss().gradient(theta, x, y, gradNow);
      spec.loss().gradient(previous, x, y, gradBefore);
      double keep = 1 - 1.0 / (t + 1);
      for (int i = 0; i < d; i++) {
        recursive[i] = gradNow[i] + keep * (recursive[i] - gradBefore[i]);
      }
      StepOutcome outcome = estimator.step(x, y);
      assertFalse(outcome.clipped(), "data within the declared bounds must not be clipped");
      assertArrayEquals(recursive, estimator.lastDirection(), tolerance, "d_t at t=" + t);
      previous = theta;
      theta = estimator.parameters();
    }
  }

  @Test
  void resumedFromItsStateAnywhereTheReleasesAreBitIdentical() throws IOException {
    OnlineTestData data = new OnlineTestData(5, 1.5, RADIUS, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(3));
    OnlineModelSpec spec = data.spec("resume", 1.5, RADIUS, 1, 64, AccountantChoice.ZCDP);
    ResumeRuns.Stream stream = ResumeRuns.draw(data, 200); // past the horizon of 64: three epochs
    OnlineEstimator straight = OnlineEstimators.start(spec, SOURCE);
    double[][] expected = ResumeRuns.straightReleases(straight, stream, s -> { });
    for (int crash : new int[] {0, 1, 63, 64, 65, 130, 199}) {
      OnlineEstimator first = OnlineEstimators.start(spec, new KeyedNoiseSource(TestKeys.seeded(77)));
      ResumeRuns.stepThrough(first, stream, crash);
      OnlineEstimator resumed = ResumeRuns.restore(spec, ResumeRuns.state(first), new KeyedNoiseSource(TestKeys.seeded(77)));
      assertEquals(first.ledger(), resumed.ledger());
      ResumeRuns.assertContinuesStraight(resumed, stream, crash, expected, "");
      assertEquals(3, resumed.epoch()); // 200 steps = 3 full trees of 64 and 8 steps of the fourth

    }
  }

  /** The square-root factorization plugs in the same way: resumable bit for bit, ledger within budget. */
  @Test
  void factorizationPrefixSumsResumeBitIdenticallyAndStayWithinBudget() throws IOException {
    OnlineTestData data = new OnlineTestData(4, 1.5, RADIUS, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(11));
    OnlineModelSpec spec = data.spec("factorized", 1.5, RADIUS, 1, 50, AccountantChoice.FACTORIZATION);
    ResumeRuns.Stream stream = ResumeRuns.draw(data, 120);
    OnlineEstimator straight = OnlineEstimators.start(spec, SOURCE);
    double[][] expected = ResumeRuns.straightReleases(straight, stream, s -> assertTrue(s.ledger().spentEpsilon() <= 1));
    assertTrue(straight.mechanism().contains("sqrt-factorization"), straight.mechanism());
    for (int crash : new int[] {0, 49, 50, 77}) {
      OnlineEstimator first = OnlineEstimators.start(spec, SOURCE);
      ResumeRuns.stepThrough(first, stream, crash);
      OnlineEstimator resumed = ResumeRuns.restore(spec, ResumeRuns.state(first), SOURCE);
      ResumeRuns.assertContinuesStraight(resumed, stream, crash, expected, "");
    }
  }

  @Test
  void theSimplexIsRefusedAndLeftToDpPofw() {
    OnlineTestData data = new OnlineTestData(3, 1, RADIUS, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(4));
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
        () -> DpTofw.start(data.spec("simplex", 1, RADIUS, 1, 64, AccountantChoice.ZCDP), SOURCE));
    assertTrue(refused.getMessage().contains("use DP-POFW for p = 1"), refused.getMessage());
  }

  /** A state whose step count or epoch disagrees with its prefix sums' (corrupt, or crafted) is refused, not resumed. */
  @Test
  void aStateWhoseStepsOrEpochDisagreeWithItsPrefixSumsIsRefused() throws IOException {
    OnlineTestData data = new OnlineTestData(3, 2, RADIUS, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(4));
    OnlineModelSpec spec = data.spec("steps", 2, RADIUS, 1, 128, AccountantChoice.ZCDP);
    OnlineEstimator estimator = OnlineEstimators.start(spec, SOURCE);
    for (int t = 0; t < 3; t++) {
      double[] x = data.features();
      estimator.step(x, data.label(x));
    }
    byte[] state = ResumeRuns.state(estimator);
    ByteArrayInputStream afterHeader = new ByteArrayInputStream(state);
    VersionedState.readHeader(new DataInputStream(afterHeader), DpTofw.STATE_VERSION, spec.fingerprint(), "test");
    byte[] moreSteps = state.clone();
    ByteBuffer.wrap(moreSteps, state.length - afterHeader.available(), Long.BYTES).putLong(4);
    assertTrue(refusal(spec, moreSteps).contains("inconsistent DP-TOFW state: 4 steps in epoch 0"));
    // The header's epoch: version, marker, the fingerprint's length and bytes, the key check, then the epoch.
    byte[] laterEpoch = state.clone();
    ByteBuffer.wrap(laterEpoch, 3 + spec.fingerprint().length + Long.BYTES, Long.BYTES).putLong(1);
    assertTrue(refusal(spec, laterEpoch).contains("inconsistent DP-TOFW state: 3 steps in epoch 1"));
  }

  private static String refusal(OnlineModelSpec spec, byte[] state) {
    return assertThrows(IOException.class,
        () -> OnlineEstimators.restore(spec, new DataInputStream(new ByteArrayInputStream(state)), SOURCE)).getMessage();
  }

  @Test
  void stateFromAnotherSpecOrVersionIsRefused() throws IOException {
    OnlineTestData data = new OnlineTestData(3, 2, RADIUS, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(4));
    OnlineModelSpec spec = data.spec("guard", 2, RADIUS, 1, 128, AccountantChoice.ZCDP);
    OnlineEstimator estimator = OnlineEstimators.start(spec, SOURCE);
    double[] x = data.features();
    estimator.step(x, data.label(x));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    estimator.writeState(new DataOutputStream(bytes));
    byte[] state = bytes.toByteArray();

    OnlineModelSpec otherBudget = data.spec("guard", 2, RADIUS, 2, 128, AccountantChoice.ZCDP);
    IOException changed = assertThrows(IOException.class, () -> OnlineEstimators.restore(
        otherBudget, new DataInputStream(new ByteArrayInputStream(state)), SOURCE));
    assertTrue(changed.getMessage().contains("different spec"), changed.getMessage());

    byte[] future = state.clone();
    future[0] = 42;
    IOException version = assertThrows(IOException.class, () -> OnlineEstimators.restore(
        spec, new DataInputStream(new ByteArrayInputStream(future)), SOURCE));
    assertTrue(version.getMessage().contains("version 42"), version.getMessage());
  }

  @Test
  void badSamplesAreRejectedAndChangeNothing() {
    OnlineTestData data = new OnlineTestData(3, 2, RADIUS, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(5));
    OnlineEstimator estimator = OnlineEstimators.start(data.spec("bad", 2, RADIUS, 1, 128, AccountantChoice.ZCDP), SOURCE);
    double[] x = data.features();
    estimator.step(x, data.label(x));
    double[] before = estimator.parameters();
    assertThrows(IllegalArgumentException.class, () -> estimator.step(new double[] {1, 2}, 0));
    assertThrows(IllegalArgumentException.class, () -> estimator.step(new double[] {0, Double.NaN, 0}, 0));
    assertThrows(IllegalArgumentException.class, () -> estimator.step(x, Double.POSITIVE_INFINITY));
    assertEquals(1, estimator.steps());
    assertArrayEquals(before, estimator.parameters());
  }

  /** Oversized inputs are clipped, never trusted: the clip flags say so and the step still happens. */
  @Test
  void oversizedSamplesAreClippedAndCounted() {
    OnlineTestData data = new OnlineTestData(3, 2, RADIUS, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(6));
    OnlineEstimator estimator = OnlineEstimators.start(data.spec("clip", 2, RADIUS, 1, 128, AccountantChoice.ZCDP), SOURCE);
    StepOutcome outcome = estimator.step(new double[] {1e6, -1e6, 1e6}, 1e6);
    assertTrue(outcome.sampleClipped(), "a sample far outside the declared data bounds is clipped to them");
    assertTrue(outcome.clipped());
    assertEquals(1, outcome.step());
  }

  @Test
  void theLedgerAdvancesWithTheTreeAndStaysWithinBudget() {
    OnlineTestData data = new OnlineTestData(3, 2, RADIUS, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(7));
    OnlineModelSpec spec = data.spec("ledger", 2, RADIUS, 1, 16, AccountantChoice.ZCDP);
    OnlineEstimator estimator = OnlineEstimators.start(spec, SOURCE);
    double spentBefore = 0;
    for (int t = 1; t <= 40; t++) {
      double[] x = data.features();
      estimator.step(x, data.label(x));
      double spent = estimator.ledger().spentEpsilon();
      assertTrue(spent >= spentBefore && spent <= 1, "t=" + t + ": spent " + spent);
      spentBefore = spent;
    }
    assertEquals(2, estimator.ledger().epoch());
    assertTrue(estimator.mechanism().startsWith("dp-tofw/zcdp"), estimator.mechanism());
  }

  @Test
  void autoPicksTheSmallerPredictedNoiseAndNamesIt() {
    OnlineTestData data = new OnlineTestData(5, 1.5, RADIUS, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(8));
    OnlineModelSpec auto = data.spec("auto", 1.5, RADIUS, 1, 10_000, AccountantChoice.AUTO);
    TreeNoisePlan paper = TreeNoisePlan.paper(auto);
    TreeNoisePlan zcdp = TreeNoisePlan.zcdp(auto, ZcdpBudget.of(auto.budget()));
    TreeNoisePlan chosen = TreeNoisePlan.choose(auto);
    double expected = Math.min(paper.predictedNodeError(), zcdp.predictedNodeError());
    assertEquals(expected, chosen.predictedNodeError());
    assertTrue(OnlineEstimators.start(auto, SOURCE).mechanism().contains(chosen.calibration().accountant()));
  }

  /**
   * For small d and p near 1 the paper's l_{q+} norm does not exist (q+ < 1) and the regularity falls
   * back to a scaled l2 norm although p <= 2; the paper plan must still build and name its noise.
   */
  @Test
  void paperPlanWorksWhereTheSmoothNormIsScaledL2BelowPTwo() {
    OnlineTestData data = new OnlineTestData(5, 1.1, RADIUS, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(10));
    OnlineModelSpec spec = data.spec("p11", 1.1, RADIUS, 1, 1000, AccountantChoice.PAPER);
    TreeNoisePlan plan = TreeNoisePlan.choose(spec);
    assertTrue(plan.noise().describe().startsWith("gaussian"), plan.describe());
    OnlineEstimator estimator = OnlineEstimators.start(spec, SOURCE);
    double[] x = data.features();
    estimator.step(x, data.label(x));
    assertEquals(1, estimator.steps());
  }

  private static double leastSquaresSlope(int[] xs, double[] ys) {
    double mx = 0;
    double my = 0;
    for (int i = 0; i < xs.length; i++) {
      mx += Math.log(xs[i]) / xs.length;
      my += ys[i] / xs.length;
    }
    double sxy = 0;
    double sxx = 0;
    for (int i = 0; i < xs.length; i++) {
      double dx = Math.log(xs[i]) - mx;
      sxy += dx * (ys[i] - my);
      sxx += dx * dx;
    }
    return sxy / sxx;
  }
}
