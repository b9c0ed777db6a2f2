package org.dpstream.bandit.linear;

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
import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpstream.bandit.Decision;
import org.dpstream.bandit.hdb.TestRandomness;
import org.dpstream.core.online.AccountantChoice;
import org.dpstream.core.online.NoiseChoice;
import org.dpstream.core.privacy.accounting.GaussianTreeCalibration;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.factorization.PrefixSumSquareRoot;
import org.dpstream.core.privacy.factorization.SqrtFactorizationCalibration;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.junit.jupiter.api.Test;

class DpLinearPolicyTest {

  private static final KeyedNoiseSource SOURCE = TestRandomness.source(77);

  private static DpLinearSpec spec(String id, int d, int arms, double epsilon, long horizon, int refreshEvery) {
    return new DpLinearSpec(id, d, arms, 1, 1, new PrivacyBudget(epsilon, 1e-5), horizon, refreshEvery,
        AccountantChoice.ZCDP, NoiseChoice.CONTINUOUS);
  }

  @Test
  void theLeafIsTheGramUpperTriangleThenTheMomentAndReadsBack() {
    double[] leaf = new double[5];
    SufficientStatistics.contribution(new double[] {1, 2}, 3, leaf);
    assertArrayEquals(new double[] {1, 2, 4, 3, 6}, leaf);
    double[] gram = new double[4];
    double[] moment = new double[2];
    SufficientStatistics.gram(leaf, 2, gram);
    SufficientStatistics.moment(leaf, 2, moment);
    assertArrayEquals(new double[] {1, 2, 2, 4}, gram);
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
    assertEquals(spec.leafBound(), spec.statisticsSpec(1).incrementClipping().threshold());
    assertEquals("b/arm-1/stats", spec.statisticsSpec(1).modelId());
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
    double expected = s * (2 * Math.sqrt(10) + 2 * Math.sqrt(Math.log(10_000 / 0.05)));
    assertEquals(expected, RidgeWeight.of(spec, spec.plan(), 0), 1e-9 * expected);
    assertEquals(expected * Math.sqrt(3), RidgeWeight.of(spec, spec.plan(), 2), 1e-9 * expected);
  }

  @Test
  void withTheFactorizationTheRidgeWeightUsesItsColumnNormAndStateStillResumes() throws IOException {
    DpLinearSpec spec = new DpLinearSpec("fact", 3, 2, 1, 1, new PrivacyBudget(1, 1e-5), 40, 4,
        AccountantChoice.FACTORIZATION, NoiseChoice.CONTINUOUS);
    SqrtFactorizationCalibration calibration = (SqrtFactorizationCalibration) spec.plan().calibration();
    double s = calibration.noiseSigma() * Math.sqrt(PrefixSumSquareRoot.squaredColumnNorm(10));
    double expected = s * (2 * Math.sqrt(3) + 2 * Math.sqrt(Math.log(10 / 0.05)));
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

  /**
   * Arm i's statistics draw from stream {@code banditId/arm-i/stats} of the statistics' own kind: a model of that name
   * in the same scope (the bandit's routing partition) draws other noise, whatever the configuration calls it.
   */
  @Test
  void theStatisticsNoiseIsOfItsOwnKindNotThatOfAModelOfTheSameName() {
    DpLinearSpec spec = spec("offers3", 2, 2, 1, 100, 1);
    KeyedNoiseSource placed = SOURCE.scoped("routing partition 2 of 6");
    DpLinearPolicy policy = DpLinearPolicy.start(spec, placed);
    double[] x = {0.3, -0.2};
    policy.update(new Decision(0, Decision.Phase.GREEDY, 0), x, 0.5); // arm 1's leaf is zero: its release is noise
    double[] zero = new double[spec.leafDimension()];
    double[] ofKind = new double[spec.leafDimension()];
    spec.plan().start(spec.statisticsSpec(1), placed.kind(DpLinearPolicy.NOISE_KIND)).addAndRelease(zero, ofKind);
    double[] ofModel = new double[spec.leafDimension()];
    spec.plan().start(spec.statisticsSpec(1), placed).addAndRelease(zero, ofModel);
    assertArrayEquals(ofKind, policy.releasedStatistics(1));
    assertFalse(Arrays.equals(ofModel, policy.releasedStatistics(1)),
        "a model named offers3/arm-1/stats in the same routing partition draws other noise");
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
