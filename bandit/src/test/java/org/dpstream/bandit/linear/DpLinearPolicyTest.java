package org.dpstream.bandit.linear;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpstream.bandit.Decision;
import org.dpstream.bandit.hdb.TestRandomness;
import org.dpstream.core.online.AccountantChoice;
import org.dpstream.core.online.NoiseChoice;
import org.dpstream.core.online.TreeNoisePlan;
import org.dpstream.core.privacy.accounting.GaussianTreeCalibration;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.factorization.PrefixSumSquareRoot;
import org.dpstream.core.privacy.factorization.SqrtFactorizationCalibration;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.tree.Lattice;
import org.junit.jupiter.api.Test;

class DpLinearPolicyTest {

  private static final KeyedNoiseSource SOURCE = TestRandomness.source(77);

  private static DpLinearSpec spec(String id, int d, int arms, double epsilon, long horizon, int refreshEvery) {
    return new DpLinearSpec(id, d, arms, 1, 1, new PrivacyBudget(epsilon, 1e-5), horizon, refreshEvery,
        AccountantChoice.ZCDP, NoiseChoice.CONTINUOUS);
  }

  @Test
  void theLeafIsSvecOfTheGramThenTheMomentAndReadsBack() {
    double[] leaf = new double[5];
    SufficientStatistics.contribution(new double[] {1, 2}, 3, leaf);
    assertArrayEquals(new double[] {1, Math.sqrt(2) * 2, 4, 3, 6}, leaf);
    // svec is an isometry: the Gram part has l2 norm ||x x'||_F = ||x||^2 = 5.
    assertEquals(5, Math.sqrt(leaf[0] * leaf[0] + leaf[1] * leaf[1] + leaf[2] * leaf[2]), 1e-12);
    double[] gram = new double[4];
    double[] moment = new double[2];
    SufficientStatistics.gram(leaf, 2, gram);
    SufficientStatistics.moment(leaf, 2, moment);
    assertArrayEquals(new double[] {1, 2, 2, 4}, gram, 1e-15);
    assertArrayEquals(new double[] {3, 6}, moment);
    assertEquals(5, DpLinearSpec.leafDimension(2));
    assertEquals(65, DpLinearSpec.leafDimension(10));
  }

  @Test
  void theLeafBoundIsSqrtOfC4PlusC2B2WidenedByTwoToTheMinus18() {
    DpLinearSpec spec = new DpLinearSpec("b", 2, 2, 2, 1, new PrivacyBudget(1, 1e-5), 100, 10, AccountantChoice.ZCDP,
        NoiseChoice.CONTINUOUS);
    assertEquals(Math.nextUp(Math.sqrt(20) * (1 + 0x1p-18)), spec.leafBound());
    assertEquals(10, spec.releasesPerEpoch());
    assertEquals(11, new DpLinearSpec("b", 2, 2, 2, 1, new PrivacyBudget(1, 1e-5), 101, 10, AccountantChoice.ZCDP,
        NoiseChoice.CONTINUOUS).releasesPerEpoch());
    assertEquals(spec.halfSensitivity(), spec.statisticsSpec(1).incrementClipping().threshold());
    assertEquals("b/arm-1/stats", spec.statisticsSpec(1).modelId());
  }

  /**
   * Delta^2 = max over s in [0, 1] of 2 c^4 (1 - s^2) + 2 c^2 B^2 (1 + s); checked against the direct maximum of
   * ||v(x, r) - v(y, r')||^2 over contexts in the c-ball and rewards in [-B, B] (random pairs and a fine grid of the
   * angle at full norms), which it must bound and attain within 10^-6.
   */
  @Test
  void theSensitivityIsTheLargestChangeOfOneContributionAndHalfOfItCalibratesTheMechanism() {
    UniformRandomProvider rng = TestRandomness.bits(11);
    double[][] clips = {{1, 1}, {1, 1.2}, {2, 0.5}, {1, 3}, {0.5, 0.1}};
    for (double[] cb : clips) {
      double c = cb[0];
      double b = cb[1];
      double bound = DpLinearSpec.squaredSensitivity(c, b);
      double largest = 0;
      double[] v = new double[5];
      double[] w = new double[5];
      for (int i = 0; i < 200_000; i++) {
        double[] x = ball(rng, c);
        double[] y = ball(rng, c);
        double r = b * (2 * rng.nextDouble() - 1);
        double q = i % 2 == 0 ? -r : b * (2 * rng.nextDouble() - 1);
        SufficientStatistics.contribution(x, r, v);
        SufficientStatistics.contribution(y, q, w);
        largest = Math.max(largest, squaredDistance(v, w));
      }
      for (int k = 0; k <= 100_000; k++) {
        double angle = Math.PI / 2 * k / 100_000;
        SufficientStatistics.contribution(new double[] {c, 0}, b, v);
        SufficientStatistics.contribution(new double[] {-c * Math.cos(angle), c * Math.sin(angle)}, b, w);
        largest = Math.max(largest, squaredDistance(v, w));
      }
      assertTrue(largest <= bound * (1 + 1e-12), "c=" + c + ", B=" + b + ": " + largest + " > " + bound);
      assertEquals(bound, largest, 1e-6 * bound, "c=" + c + ", B=" + b);
      // Different arms: ||v||^2 + ||v'||^2 <= 2 c^4 + 2 c^2 B^2, within the same bound.
      assertTrue(2 * c * c * (c * c + b * b) <= bound);
    }
    DpLinearSpec spec = new DpLinearSpec("h", 2, 2, 1, 1, new PrivacyBudget(1, 1e-5), 100, 10, AccountantChoice.ZCDP,
        NoiseChoice.CONTINUOUS);
    assertEquals(4.5, DpLinearSpec.squaredSensitivity(1, 1), 1e-15);
    assertEquals(Math.sqrt(4.5) / 2 * (1 + 0x1p-12), spec.halfSensitivity(), 1e-15);
    assertTrue(spec.halfSensitivity() < spec.leafBound(), "H < C: the difference of two is shorter than 2 C");
  }

  private static double[] ball(UniformRandomProvider rng, double radius) {
    double angle = 2 * Math.PI * rng.nextDouble();
    double norm = radius * Math.sqrt(Math.sqrt(rng.nextDouble())); // more mass near the boundary
    return new double[] {norm * Math.cos(angle), norm * Math.sin(angle)};
  }

  private static double squaredDistance(double[] a, double[] b) {
    double sum = 0;
    for (int i = 0; i < a.length; i++) {
      sum += (a[i] - b[i]) * (a[i] - b[i]);
    }
    return sum;
  }

  /**
   * Rewards are centred by the public m before scaling and clipping: with almost no noise, a reward of m adds nothing
   * to the moment, and a reward of m + 3 is clipped to B = 1 after centring (not before).
   */
  @Test
  void rewardsAreCentredBeforeTheyAreScaledAndClipped() {
    DpLinearSpec spec = new DpLinearSpec("centre", 2, 1, 1, 1, new PrivacyBudget(1e9, 1e-5), 4, 1,
        AccountantChoice.FACTORIZATION, NoiseChoice.CONTINUOUS, 0.5);
    DpLinearPolicy policy = DpLinearPolicy.start(spec, SOURCE);
    double[] x = {0.6, 0.8};
    policy.update(policy.decide(x), x, 0.5);
    // The release noise's standard deviation at epsilon = 1e9 is below 1e-4 (the calibration's sigma times the
    // factorization's column norm); 1e-3 is more than ten of them, far below the 0.6 and 0.8 tested.
    double tolerance = 1e-3;
    assertTrue(RidgeWeight.releaseNoiseStd(spec.plan().calibration(), spec.releasesPerEpoch()) < 1e-4);
    double[] first = policy.releasedStatistics(0);
    assertEquals(0, first[3], tolerance);
    assertEquals(0, first[4], tolerance);
    policy.update(policy.decide(x), x, 3.5);
    double[] second = policy.releasedStatistics(0);
    assertEquals(0.6, second[3], tolerance);
    assertEquals(0.8, second[4], tolerance);
    assertThrows(IllegalArgumentException.class, () -> new DpLinearSpec("c", 2, 1, 1, 1, new PrivacyBudget(1, 1e-5),
        4, 1, AccountantChoice.ZCDP, NoiseChoice.CONTINUOUS, Double.NaN));
  }

  /**
   * A pending leaf sums refreshEvery rounds' contributions in lattice units, exactly only below 2^52 units: the
   * longest period accepted keeps refreshEvery times the largest contribution below it, one round more would not,
   * and the spec refuses it at construction (config validation).
   */
  @Test
  void refreshEveryIsBoundedSoThePendingSumsStayExact() {
    PrivacyBudget budget = new PrivacyBudget(1, 1e-5);
    for (double[] clips : new double[][] {{1, 1}, {1, 1.2}, {3, 0.5}, {0.01, 100}}) {
      long max = DpLinearSpec.maxRefreshEvery(clips[0], clips[1]);
      long units = DpLinearSpec.maxUnitsPerContribution(clips[0], clips[1]);
      assertTrue(units >= 1L << 30 && units <= 0x1p31 * Math.sqrt(2) + 1, "units " + units);
      assertTrue(max * units < 1L << 52 && (max + 1) * units >= 1L << 52, "tight at " + max);
      DpLinearSpec longest = new DpLinearSpec("b", 1, 2, clips[0], clips[1], budget, 2 * max, (int) max,
          AccountantChoice.ZCDP, NoiseChoice.CONTINUOUS);
      // The policy's lattice holds the largest pending sum exactly, and the tree's rounding takes it back.
      Lattice lattice = TreeNoisePlan.latticeFor(longest.statisticsSpec(0));
      assertEquals(max * units, lattice.toUnits(lattice.toValue(max * units)));
      assertThrows(ArithmeticException.class, () -> lattice.toUnits(lattice.toValue((max + 1) * units)),
          "one round more is past what the lattice takes");
      IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> new DpLinearSpec("b", 1,
          2, clips[0], clips[1], budget, 2 * max + 2, (int) max + 1, AccountantChoice.ZCDP, NoiseChoice.CONTINUOUS));
      assertTrue(refused.getMessage().startsWith("refreshEvery must be at most " + max), refused.getMessage());
    }
  }

  @Test
  void specRefusesNonGaussianAccountantsAndBadPeriods() {
    PrivacyBudget budget = new PrivacyBudget(1, 1e-5);
    assertThrows(IllegalArgumentException.class, () -> new DpLinearSpec("b", 2, 2, 1, 1, budget, 100, 10,
        AccountantChoice.PAPER, NoiseChoice.CONTINUOUS));
    assertThrows(IllegalArgumentException.class, () -> new DpLinearSpec("b", 2, 2, 1, 1, budget, 100, 10,
        AccountantChoice.AUTO, NoiseChoice.CONTINUOUS));
    assertThrows(IllegalArgumentException.class, () -> new DpLinearSpec("b", 2, 2, 1, 1, budget, 100, 0,
        AccountantChoice.ZCDP, NoiseChoice.CONTINUOUS));
    assertThrows(IllegalArgumentException.class, () -> new DpLinearSpec("b", 2, 2, 1, 1, budget, 19, 10,
        AccountantChoice.ZCDP, NoiseChoice.CONTINUOUS));
    assertThrows(IllegalArgumentException.class, () -> new DpLinearSpec("b", 2, 2, 0, 1, budget, 100, 10,
        AccountantChoice.ZCDP, NoiseChoice.CONTINUOUS));
  }

  @Test
  void theRidgeWeightIsTheSpectralBoundOfTheTreesReleaseNoise() {
    DpLinearSpec spec = spec("ridge", 10, 3, 1, 100_000, 10);
    GaussianTreeCalibration tree = (GaussianTreeCalibration) spec.plan().calibration();
    double s = tree.nodeSigma() * Math.sqrt(tree.tree().depth());
    double expected = s * (Math.sqrt(20) + Math.sqrt(2 * Math.log(10_000 / 0.05)));
    assertEquals(expected, RidgeWeight.of(spec, spec.plan(), 0), 1e-9 * expected);
    assertEquals(expected * Math.sqrt(3), RidgeWeight.of(spec, spec.plan(), 2), 1e-9 * expected);
  }

  @Test
  void withTheFactorizationTheRidgeWeightUsesItsColumnNormAndStateStillResumes() throws IOException {
    DpLinearSpec spec = new DpLinearSpec("fact", 3, 2, 1, 1, new PrivacyBudget(1, 1e-5), 40, 4,
        AccountantChoice.FACTORIZATION, NoiseChoice.CONTINUOUS);
    SqrtFactorizationCalibration calibration = (SqrtFactorizationCalibration) spec.plan().calibration();
    double s = calibration.noiseSigma() * Math.sqrt(PrefixSumSquareRoot.squaredColumnNorm(10));
    double expected = s * (Math.sqrt(6) + Math.sqrt(2 * Math.log(10 / 0.05)));
    assertEquals(expected, RidgeWeight.of(spec, spec.plan(), 0), 1e-9 * expected);

    DpLinearPolicy original = DpLinearPolicy.start(spec, SOURCE);
    double[] x = {0.4, -0.2, 0.9};
    for (int round = 0; round < 10; round++) {
      original.update(original.decide(x), x, 0.3);
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    original.writeState(new DataOutputStream(bytes));
    DpLinearPolicy restored = DpLinearPolicy.restore(spec,
        new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())), SOURCE);
    for (int round = 10; round < 20; round++) {
      Decision decision = original.decide(x);
      original.update(decision, x, 0.3);
      restored.update(decision, x, 0.3);
    }
    assertEquals(5, restored.step());
    for (int arm = 0; arm < 2; arm++) {
      assertArrayEquals(original.armParameters(arm), restored.armParameters(arm));
    }
    assertEquals(calibration.spentAfter(5).epsilon(), restored.ledger().spentEpsilon());
  }

  @Test
  void learnsEachArmsLinearModelWhenTheNoiseIsSmall() {
    DpLinearPolicy policy = DpLinearPolicy.start(spec("learn", 2, 2, 1e6, 4000, 10), SOURCE);
    UniformRandomProvider rng = TestRandomness.bits(5);
    double[][] truth = {{0.8, 0}, {0, -0.6}};
    for (int round = 0; round < 4000; round++) {
      double angle = rng.nextDouble() * 2 * Math.PI;
      double[] x = {2 * Math.cos(angle), 2 * Math.sin(angle)}; // norm 2: scaled to the unit circle
      int arm = round % 2;
      double reward = truth[arm][0] * x[0] + truth[arm][1] * x[1];
      policy.update(new Decision(arm, Decision.Phase.GREEDY, round), x, reward);
    }
    assertEquals(400, policy.step());
    for (int arm = 0; arm < 2; arm++) {
      double[] theta = policy.armParameters(arm);
      assertEquals(truth[arm][0], theta[0], 0.01, "arm " + arm);
      assertEquals(truth[arm][1], theta[1], 0.01, "arm " + arm);
    }
    assertEquals(0, policy.decide(new double[] {1, 0}).arm());
    assertEquals(1, policy.decide(new double[] {0, -1}).arm());
  }

  @Test
  void theLedgerChargesTheCalibrationAtEachReleaseOnly() {
    DpLinearSpec spec = spec("ledger", 3, 2, 1, 100, 4);
    DpLinearPolicy policy = DpLinearPolicy.start(spec, SOURCE);
    double[] x = {0.1, 0.2, 0.3};
    for (int round = 0; round < 3; round++) {
      policy.update(policy.decide(x), x, 0.5);
    }
    assertEquals(0, policy.ledger().spentEpsilon());
    assertEquals(0, policy.step());
    for (int round = 3; round < 12; round++) {
      policy.update(policy.decide(x), x, 0.5);
    }
    assertEquals(3, policy.step());
    assertEquals(spec.plan().calibration().spentAfter(3).epsilon(), policy.ledger().spentEpsilon());
    assertEquals(policy.ledger().spentEpsilon(), policy.privacySpent().epsilon());
    assertTrue(policy.privacySpent().isWithinBudget());
    assertEquals(12, policy.currentRelease().rounds());
  }

  @Test
  void pastTheHorizonANewEpochStartsAndTheRidgeWeightGrows() {
    DpLinearSpec spec = spec("epochs", 2, 2, 1, 8, 2);
    DpLinearPolicy policy = DpLinearPolicy.start(spec, SOURCE);
    double lambda = policy.currentRidgeWeight();
    double[] x = {0.5, 0.5};
    for (int round = 0; round < 10; round++) {
      policy.update(policy.decide(x), x, 0.5);
    }
    assertEquals(5, policy.step());
    assertEquals(1, policy.ledger().epoch());
    assertEquals(lambda * Math.sqrt(2), policy.currentRidgeWeight(), 1e-12 * lambda);
    assertTrue(policy.privacySpent().isWithinBudget());
  }

  @Test
  void anyFiniteInputIsLearntAndBadInputChangesNothing() {
    DpLinearPolicy policy = DpLinearPolicy.start(spec("any", 3, 2, 1, 100, 2), SOURCE);
    double[] huge = {1e300, -1e300, 5};
    policy.update(policy.decide(huge), huge, 1e300);
    policy.update(policy.decide(huge), new double[] {Double.MIN_VALUE, 0, 0}, -1e300);
    for (int arm = 0; arm < 2; arm++) {
      for (double value : policy.armParameters(arm)) {
        assertTrue(Double.isFinite(value));
      }
    }
    assertThrows(IllegalArgumentException.class,
        () -> policy.update(new Decision(2, Decision.Phase.GREEDY, 0), huge, 0));
    assertThrows(IllegalArgumentException.class,
        () -> policy.update(new Decision(0, Decision.Phase.GREEDY, 5), huge, 0));
    assertThrows(IllegalArgumentException.class,
        () -> policy.update(new Decision(0, Decision.Phase.GREEDY, 0), new double[] {0, Double.NaN, 0}, 0));
    assertThrows(IllegalArgumentException.class,
        () -> policy.update(new Decision(0, Decision.Phase.GREEDY, 0), huge, Double.POSITIVE_INFINITY));
    assertThrows(IllegalArgumentException.class, () -> policy.decide(new double[] {0, 0}));
    assertEquals(2, policy.rounds());
  }

  @Test
  void aRestoredBanditContinuesBitIdentically() throws IOException {
    DpLinearSpec spec = spec("state", 3, 2, 1, 100, 4);
    DpLinearPolicy original = DpLinearPolicy.start(spec, SOURCE);
    UniformRandomProvider rng = TestRandomness.bits(9);
    double[][] contexts = new double[42][3];
    double[] rewards = new double[42];
    for (int round = 0; round < 42; round++) {
      for (int j = 0; j < 3; j++) {
        contexts[round][j] = rng.nextDouble() * 2 - 1;
      }
      rewards[round] = rng.nextDouble();
    }
    for (int round = 0; round < 22; round++) {
      original.update(original.decide(contexts[round]), contexts[round], rewards[round]);
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    original.writeState(new DataOutputStream(bytes));
    DpLinearPolicy restored = DpLinearPolicy.restore(spec,
        new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())), SOURCE);
    assertEquals(22, restored.rounds());
    for (int round = 22; round < 42; round++) {
      Decision decision = original.decide(contexts[round]);
      assertEquals(decision, restored.decide(contexts[round]));
      original.update(decision, contexts[round], rewards[round]);
      restored.update(decision, contexts[round], rewards[round]);
    }
    for (int arm = 0; arm < 2; arm++) {
      assertArrayEquals(original.armParameters(arm), restored.armParameters(arm));
    }
    assertEquals(original.ledger(), restored.ledger());

    DpLinearSpec other = spec("state", 3, 2, 2, 100, 4);
    assertThrows(IOException.class, () -> DpLinearPolicy.restore(other,
        new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())), SOURCE));
  }
}
