package org.dpstream.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.HashSet;
import java.util.Set;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.privacy.factorization.BltOptimizer;
import org.dpstream.core.privacy.factorization.BltStrategy;
import org.dpstream.core.privacy.factorization.PrefixSumSquareRoot;
import org.dpstream.core.privacy.noise.GeneralizedGaussianNoise;
import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The variance of the noise of a release increment (release at {@code to} minus release at {@code from}) that the
 * balanced threshold weighs, against brute force on the mechanisms' matrices.
 */
class ReleaseNoiseTest {

  private static OnlineModelSpec spec(AccountantChoice accountant, long horizon) {
    return spec(accountant, horizon, 2);
  }

  private static OnlineModelSpec spec(AccountantChoice accountant, long horizon, double p) {
    OnlineTestData data = new OnlineTestData(3, p, 2, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(2));
    return data.spec("noise", p, 2, 1, horizon, accountant).withIncrementClipping(IncrementClipping.fixed(1));
  }

  /**
   * The tree: nodes in the symmetric difference of the dyadic decompositions of [1, from] and [1, to], each of
   * variance sigma^2 per coordinate whatever the norm the errors are predicted in (p = 2 and p = 1.5, q = 3).
   */
  @ParameterizedTest
  @ValueSource(doubles = {2, 1.5})
  void treeIncrementsCountTheNodesThatDoNotCancel(double p) {
    TreeNoisePlan tree = TreeNoisePlan.choose(spec(AccountantChoice.ZCDP, 128, p));
    double nodeVariance = Math.pow(((org.dpstream.core.privacy.noise.IidVectorNoise) tree.noise()).scale(), 2);
    for (long to = 1; to <= 128; to++) {
      for (long from = 0; from < to; from++) {
        assertEquals(uncancelledNodes(from, to) * nodeVariance, tree.incrementNoiseVariance(from, to), 1e-9 * nodeVariance,
            "from " + from + " to " + to);
      }
    }
  }

  /**
   * The paper's tree at p = 3 draws Gaussian nodes (the smooth norm is a scaled l2): its predicted node error is the
   * Gaussian E ||Z||_q^2 of their scale at q = 3/2, not the generalized Gaussian's proxy d sigma_+^2.
   */
  @Test
  void paperTreeOfGaussianNodesPredictsTheirDualNorm() {
    TreeNoisePlan paper = TreeNoisePlan.paper(spec(AccountantChoice.PAPER, 64, 3));
    IidVectorNoise gaussian = assertInstanceOf(IidVectorNoise.class, paper.noise());
    assertEquals(TreeNoisePlan.gaussianDualNormSquare(3, 1.5, gaussian.scale()), paper.predictedNodeError(), 0);
  }

  /**
   * The paper's tree at p = 1.5 and d = 20 (Lemma 3.2 via l_3) draws generalized Gaussian nodes, for which the
   * variance of a node is the norm-equivalence proxy predictedNodeError / d: an increment weighs the nodes that do
   * not cancel by it.
   */
  @Test
  void paperTreeIncrementsWeighTheNodesByTheProxyOfTheirVariance() {
    OnlineTestData data = new OnlineTestData(20, 1.5, 2, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(2));
    OnlineModelSpec spec = data.spec("noise", 1.5, 2, 1, 64, AccountantChoice.PAPER)
        .withIncrementClipping(IncrementClipping.fixed(1));
    TreeNoisePlan paper = TreeNoisePlan.paper(spec);
    assertInstanceOf(GeneralizedGaussianNoise.class, paper.noise());
    double nodeVariance = paper.predictedNodeError() / 20;
    for (long[] pair : new long[][] {{0, 1}, {0, 7}, {3, 4}, {5, 12}, {31, 32}, {0, 64}}) {
      assertEquals(uncancelledNodes(pair[0], pair[1]) * nodeVariance, paper.incrementNoiseVariance(pair[0], pair[1]),
          1e-12 * nodeVariance, pair[0] + " to " + pair[1]);
    }
  }

  /**
   * The predicted (E ||Z||_q^q)^(2/q) of Gaussian nodes by hand: d sigma^2 at q = 2 (E|N(0,1)|^2 = 1), the moment
   * 2 sqrt(2 / pi) at q = 3, and the maximal inequality sigma^2 (2 ln(2d) + 2) at q = infinity (p = 1).
   */
  @Test
  void predictedNodeErrorOfGaussianNodesByHand() {
    assertEquals(5 * 9.0, TreeNoisePlan.gaussianDualNormSquare(5, 2, 3), 1e-12);
    double thirdMoment = 2 * Math.sqrt(2 / Math.PI);
    assertEquals(9 * Math.pow(5 * thirdMoment, 2.0 / 3), TreeNoisePlan.gaussianDualNormSquare(5, 3, 3), 1e-11);
    assertEquals(9 * (2 * Math.log(10) + 2), TreeNoisePlan.gaussianDualNormSquare(5, Double.POSITIVE_INFINITY, 3),
        1e-12);
  }

  /** The size of the symmetric difference of the dyadic decompositions of [1, from] and [1, to]. */
  private static int uncancelledNodes(long from, long to) {
    Set<String> difference = new HashSet<>(nodes(to));
    for (String node : nodes(from)) {
      if (!difference.remove(node)) {
        difference.add(node);
      }
    }
    return difference.size();
  }

  /** The dyadic decomposition of [1, t]: from the highest bit down, (start, end] blocks. */
  private static Set<String> nodes(long t) {
    Set<String> nodes = new HashSet<>();
    long end = 0;
    for (int bit = 62; bit >= 0; bit--) {
      if ((t & (1L << bit)) != 0) {
        nodes.add(end + ":" + (end + (1L << bit)));
        end += 1L << bit;
      }
    }
    return nodes;
  }

  /** The BLT: the closed form against sum_r (b_(to-r) - b_(from-r))^2 with B's coefficients computed step by step. */
  @Test
  void bltIncrementsMatchTheRowsOfB() {
    int n = 300;
    BltStrategy strategy = BltOptimizer.forHorizon(n);
    double[] b = bCoefficients(strategy, n);
    for (int[] pair : new int[][] {{0, 1}, {0, 300}, {1, 2}, {10, 40}, {100, 101}, {128, 256}, {250, 300}}) {
      double brute = incrementByBrute(b, pair[0], pair[1]);
      assertEquals(brute, strategy.squaredErrorIncrementNorm(pair[0], pair[1] - pair[0]), 1e-9 * brute,
          pair[0] + " to " + pair[1]);
    }
    assertEquals(strategy.squaredErrorRowNorm(77), strategy.squaredErrorIncrementNorm(0, 77), 1e-12);
  }

  /** The square-root factorization: B = A^(1/2) has the coefficients c_k of C. */
  @Test
  void factorizationIncrementsMatchTheRowsOfB() {
    FactorizationPlan plan = (FactorizationPlan) PrefixSumPlan.choose(spec(AccountantChoice.FACTORIZATION, 300));
    double[] c = PrefixSumSquareRoot.coefficients(301);
    double variance = plan.calibration().noiseSigma() * plan.calibration().noiseSigma();
    for (int[] pair : new int[][] {{0, 1}, {0, 300}, {10, 40}, {128, 256}, {299, 300}}) {
      double brute = incrementByBrute(c, pair[0], pair[1]) * variance;
      assertEquals(brute, plan.incrementNoiseVariance(pair[0], pair[1]), 1e-9 * brute, pair[0] + " to " + pair[1]);
    }
  }

  /** b_k = sum_(l &lt;= k) of C^(-1)'s coefficients: C^(-1) applied to a unit impulse by the inverse recursion. */
  private static double[] bCoefficients(BltStrategy strategy, int n) {
    double[] decays = strategy.decays();
    double[] scales = strategy.scales();
    double[] buffers = new double[decays.length];
    double[] b = new double[n + 1];
    double running = 0;
    for (int k = 0; k <= n; k++) {
      double w = k == 0 ? 1 : 0;
      for (int i = 0; i < decays.length; i++) {
        w -= scales[i] * buffers[i];
      }
      for (int i = 0; i < decays.length; i++) {
        buffers[i] = decays[i] * buffers[i] + w;
      }
      running += w;
      b[k] = running;
    }
    return b;
  }

  /** sum over noise draws r &lt;= to of (b_(to - r) - [r &lt;= from] b_(from - r))^2. */
  private static double incrementByBrute(double[] b, int from, int to) {
    double sum = 0;
    for (int r = 1; r <= to; r++) {
      double coefficient = b[to - r] - (r <= from ? b[from - r] : 0);
      sum += coefficient * coefficient;
    }
    return sum;
  }
}
