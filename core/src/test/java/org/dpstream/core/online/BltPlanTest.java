package org.dpstream.core.online;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.geometry.LpNorm;
import org.dpstream.core.privacy.factorization.BltOptimizer;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.testing.TestKeys;
import org.dpstream.core.state.StateBindingException;
import org.junit.jupiter.api.Test;

class BltPlanTest {

  private static final double RADIUS = 2;
  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(78));

  private static OnlineModelSpec spec(String id, int d, double p, long horizon, AccountantChoice accountant) {
    OnlineTestData data = new OnlineTestData(d, p, RADIUS, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(12));
    return data.spec(id, p, RADIUS, 1, horizon, accountant);
  }

  @Test
  void accountantBltBuildsTheBltForTheHorizonAndNamesIt() {
    OnlineModelSpec spec = spec("blt", 5, 1.5, 10_000, AccountantChoice.BLT);
    BltPlan plan = assertInstanceOf(BltPlan.class, PrefixSumPlan.choose(spec));
    assertEquals(BltOptimizer.forHorizon(10_000), plan.strategy());
    assertEquals(PrefixSumPlan.l2LeafSensitivity(spec, 0), plan.calibration().l2Sensitivity());
    assertEquals(LpNorm.L2, plan.clipNorm());
    assertEquals("zcdp-cks20-blt", plan.calibration().accountant());
    OnlineEstimator estimator = OnlineEstimators.start(spec, SOURCE);
    assertTrue(estimator.mechanism().startsWith("dp-tofw/zcdp-cks20-blt/gaussian(d, sigma="), estimator.mechanism());
  }

  /**
   * AUTO compares the predicted worst-release errors in the dual norm: the BLT's last release has per-coordinate
   * variance sigma^2 E(n); the tree's sums floor(log2(n + 1)) nodes. At eps = 1, n = 10^4 the BLT's is about a
   * tenth of the tree's, so AUTO takes it; with discrete noise it takes the exact BLT for the same reason, and a
   * BLT at p = 1 (DP-POFW has no prefix sums) is refused with discrete noise.
   */
  @Test
  void autoTakesTheBltWhereItsPredictedErrorIsLowerAndTheExactBltForDiscreteNoise() {
    OnlineModelSpec auto = spec("auto", 5, 1.5, 10_000, AccountantChoice.AUTO);
    BltPlan blt = BltPlan.of(auto);
    TreeNoisePlan tree = TreeNoisePlan.choose(auto);
    double treeError = BltPlan.treeWorstReleaseError(tree, 10_000);
    assertEquals(13 * tree.predictedNodeError(), treeError, 0, "floor(log2(10001)) = 13 nodes");
    double releaseSigma = blt.calibration().sigma() * Math.sqrt(blt.strategy().squaredErrorRowNorm(10_000));
    assertEquals(TreeNoisePlan.gaussianDualNormSquare(5, 3, releaseSigma), blt.predictedReleaseError(), 0);
    assertTrue(blt.predictedReleaseError() < 0.15 * treeError, blt.predictedReleaseError() + " vs " + treeError);
    assertInstanceOf(BltPlan.class, PrefixSumPlan.choose(auto));
    ExactBltPlan exact = assertInstanceOf(ExactBltPlan.class, PrefixSumPlan.choose(auto.withNoise(NoiseChoice.DISCRETE)));
    assertTrue(exact.predictedReleaseError() < 0.15 * treeError, exact.predictedReleaseError() + " vs " + treeError);
    assertInstanceOf(ExactBltPlan.class, PrefixSumPlan.choose(spec("d", 5, 1.5, 100, AccountantChoice.BLT)
        .withNoise(NoiseChoice.DISCRETE)));
    assertThrows(IllegalArgumentException.class, () -> spec("d", 5, 1, 100, AccountantChoice.BLT)
        .withNoise(NoiseChoice.DISCRETE));
  }

  /** DP-TOFW on the BLT resumes bit for bit from any cut, across epochs, with the ledger within budget. */
  @Test
  void bltPrefixSumsResumeBitIdenticallyAndStayWithinBudget() throws IOException {
    OnlineTestData data = new OnlineTestData(4, 1.5, RADIUS, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(11));
    OnlineModelSpec spec = data.spec("blt-resume", 1.5, RADIUS, 1, 50, AccountantChoice.BLT);
    ResumeRuns.Stream stream = ResumeRuns.draw(data, 120);
    OnlineEstimator straight = OnlineEstimators.start(spec, SOURCE);
    double[][] expected = ResumeRuns.straightReleases(straight, stream, s -> assertTrue(s.ledger().spentEpsilon() <= 1));
    assertEquals(2, straight.ledger().epoch());
    for (int crash : new int[] {0, 1, 49, 50, 77}) {
      OnlineEstimator first = OnlineEstimators.start(spec, SOURCE);
      ResumeRuns.stepThrough(first, stream, crash);
      OnlineEstimator resumed = OnlineEstimators.restore(spec, stateOf(first), SOURCE);
      ResumeRuns.assertContinuesStraight(resumed, stream, crash, expected, "");
    }
  }

  /** A state written under another mechanism (AUTO resolved otherwise by another build) is refused, not misread. */
  @Test
  void stateOfAnotherMechanismIsRefused() throws IOException {
    OnlineModelSpec auto = spec("moved", 3, 1.5, 10_000, AccountantChoice.AUTO);
    TreeNoisePlan tree = TreeNoisePlan.choose(auto);
    DpTofw underTree = DpTofw.start(auto, tree, SOURCE);
    double[] x = {0.1, 0.2, -0.1};
    underTree.step(x, 0.5);
    StateBindingException refused =
        assertThrows(StateBindingException.class, () -> OnlineEstimators.restore(auto, stateOf(underTree), SOURCE));
    assertEquals(StateBindingException.Mismatch.NOISE_LAW, refused.mismatch());
    assertTrue(refused.getMessage().contains("another noise law"), refused.getMessage());
  }

  @Test
  void accountantNamesParseAndOthersAreRefusedNamingTheChoices() {
    assertEquals(AccountantChoice.BLT, AccountantChoice.parse("blt"));
    assertEquals(AccountantChoice.BLT, AccountantChoice.parse(" BLT "));
    assertEquals(AccountantChoice.FACTORIZATION, AccountantChoice.parse("factorization"));
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> AccountantChoice.parse("bltt"));
    assertEquals("accountant must be paper, zcdp, factorization, blt or auto, got 'bltt'", unknown.getMessage());
  }

  private static DataInputStream stateOf(OnlineEstimator estimator) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    estimator.writeState(new DataOutputStream(bytes));
    return new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()));
  }
}
