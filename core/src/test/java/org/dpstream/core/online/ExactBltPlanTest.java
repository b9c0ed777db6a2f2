package org.dpstream.core.online;

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
import org.dpstream.core.privacy.factorization.BltOptimizer;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;

/** The exact BLT under DP-TOFW: its calibration against the continuous BLT's, AUTO's choice, replay, refusals. */
class ExactBltPlanTest {

  private static final double RADIUS = 2;
  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(79));

  private static OnlineModelSpec spec(String id, int d, double p, long horizon, AccountantChoice accountant) {
    OnlineTestData data = new OnlineTestData(d, p, RADIUS, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(12));
    return data.spec(id, p, RADIUS, 1, horizon, accountant).withNoise(NoiseChoice.DISCRETE);
  }

  /**
   * At n = 10^4, d = 20, eps = 1 the exact BLT's worst-release error sigma^2 E(n) is the continuous BLT's within
   * 1e-3: the fixed point moves the strategy's loss F(n) E(n) by 2e-5 at most (its F and E move by up to 0.2 % in
   * opposite directions), the rounding of the C side widens F by about 1e-4 and the leaf's lattice rounding the
   * sensitivity by 2^-29.
   */
  @Test
  void theExactBltCostsAlmostNothingOverTheContinuousOne() {
    OnlineModelSpec exactSpec = spec("exact", 20, 1.5, 10_000, AccountantChoice.BLT);
    ExactBltPlan exact = assertInstanceOf(ExactBltPlan.class, PrefixSumPlan.choose(exactSpec));
    BltPlan continuous = BltPlan.of(exactSpec.withNoise(NoiseChoice.CONTINUOUS));
    double ratio = exact.predictedReleaseError() / continuous.predictedReleaseError();
    assertTrue(ratio > 1 - 1e-4 && ratio < 1 + 1e-3, "error ratio " + ratio);
    assertEquals(exact.incrementNoiseVariance(0, 10_000) / continuous.incrementNoiseVariance(0, 10_000), ratio, 1e-12);
    double optimal = BltOptimizer.forHorizon(10_000).maxLoss(10_000);
    assertEquals(1, exact.encoder().strategy().maxLoss(10_000) / optimal, 2e-5);
    // The finest lattice on which the fixed point fits: at n = 10^4 some 2^-28 of the clip bound, the tree's 2^-30.
    int coarser = exact.lattice().exponent() - TreeNoisePlan.latticeFor(exactSpec).exponent();
    assertTrue(coarser >= 0 && coarser <= ExactBltPlan.MOST_LATTICE_BITS - ExactBltPlan.FEWEST_LATTICE_BITS, "" + coarser);
    assertEquals("zcdp-cks20-exact-blt", exact.calibration().accountant());
    OnlineEstimator estimator = OnlineEstimators.start(exactSpec, SOURCE);
    assertTrue(estimator.mechanism().startsWith("dp-tofw/zcdp-cks20-exact-blt/discrete-gaussian(d, sigma="),
        estimator.mechanism());
  }

  /**
   * With discrete noise AUTO takes the exact BLT exactly where its predicted worst-release error is below the zCDP
   * tree's: at n = 10^4 about a tenth of it; at n = 2 and 64 too (F(n) E(n) = 1.56 and 5.0 against the tree's h
   * h' = 2 and 42).
   */
  @Test
  void autoWithDiscreteNoiseComparesTheExactBltWithTheTree() {
    OnlineModelSpec auto = spec("auto", 5, 1.5, 10_000, AccountantChoice.AUTO);
    ExactBltPlan exact = assertInstanceOf(ExactBltPlan.class, PrefixSumPlan.choose(auto));
    double treeError = BltPlan.treeWorstReleaseError(TreeNoisePlan.choose(auto), 10_000);
    assertTrue(exact.predictedReleaseError() < 0.15 * treeError);
    for (long horizon : new long[] {2, 64, 10_000}) {
      OnlineModelSpec spec = spec("n" + horizon, 5, 1.5, horizon, AccountantChoice.AUTO);
      boolean bltPredictsLess = ExactBltPlan.of(spec).predictedReleaseError()
          < BltPlan.treeWorstReleaseError(TreeNoisePlan.choose(spec), horizon);
      assertEquals(bltPredictsLess, PrefixSumPlan.choose(spec) instanceof ExactBltPlan, "n=" + horizon);
      assertTrue(bltPredictsLess, "n=" + horizon);
    }
  }

  /** DP-TOFW on the exact BLT resumes bit for bit from a state written anywhere, across epochs, within budget. */
  @Test
  void dpTofwOnTheExactBltResumesBitIdentically() throws IOException {
    OnlineTestData data = new OnlineTestData(4, 1.5, RADIUS, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(11));
    OnlineModelSpec spec = data.spec("exact-resume", 1.5, RADIUS, 1, 50, AccountantChoice.BLT)
        .withNoise(NoiseChoice.DISCRETE);
    ResumeRuns.Stream stream = ResumeRuns.draw(data, 120);
    OnlineEstimator straight = OnlineEstimators.start(spec, SOURCE);
    assertInstanceOf(ExactBltPlan.class, ((DpTofw) straight).plan());
    double[][] expected = ResumeRuns.straightReleases(straight, stream, s -> assertTrue(s.ledger().spentEpsilon() <= 1));
    assertEquals(2, straight.ledger().epoch());
    for (int crash : new int[] {0, 1, 25, 49, 50, 51, 77, 100}) {
      OnlineEstimator first = OnlineEstimators.start(spec, SOURCE);
      ResumeRuns.stepThrough(first, stream, crash);
      OnlineEstimator resumed = OnlineEstimators.restore(spec, stateOf(first), SOURCE);
      ResumeRuns.assertContinuesStraight(resumed, stream, crash, expected, "");
    }
  }

  /**
   * A state written when AUTO with discrete noise meant the zCDP tree is refused: its header binds it to the tree's
   * noise law, and the spec's plan is now the exact BLT, another law.
   */
  @Test
  void aTreeStateIsNotReadAsAnExactBlt() throws IOException {
    OnlineModelSpec auto = spec("moved", 3, 1.5, 10_000, AccountantChoice.AUTO);
    TreeNoisePlan tree = TreeNoisePlan.choose(auto);
    DpTofw underTree = DpTofw.start(auto, tree, tree.start(auto, SOURCE));
    underTree.step(new double[] {0.1, 0.2, -0.1}, 0.5);
    IOException refused = assertThrows(IOException.class, () -> OnlineEstimators.restore(auto, stateOf(underTree), SOURCE));
    assertInstanceOf(ExactBltPlan.class, PrefixSumPlan.choose(auto));
    assertTrue(refused.getMessage().contains("another noise law"), refused.getMessage());
  }

  private static DataInputStream stateOf(OnlineEstimator estimator) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    estimator.writeState(new DataOutputStream(bytes));
    return new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()));
  }
}
