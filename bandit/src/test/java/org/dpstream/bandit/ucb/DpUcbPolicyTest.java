package org.dpstream.bandit.ucb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.dpstream.bandit.Decision;
import org.dpstream.bandit.env.BanditRound;
import org.dpstream.bandit.env.EnvironmentBounds;
import org.dpstream.bandit.env.SyntheticLinearEnvironment;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKey;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;
import org.junit.jupiter.api.Test;

class DpUcbPolicyTest {

  private static KeyedNoiseSource source(String seed) {
    byte[] key = Arrays.copyOf(("dp-ucb-test/" + seed).getBytes(StandardCharsets.US_ASCII), 32);
    return new KeyedNoiseSource(NoiseKey.ofBytes(key));
  }

  private static DpUcbSpec spec(int d, int arms, int horizon, double epsilon, EnvironmentBounds bounds) {
    return DpUcbSpec.forEnvironment("test", arms, d, horizon, new PrivacyBudget(epsilon, 1.0 / horizon), bounds);
  }

  /**
   * Two arms, d = 2: theta_0 = (1, 0), theta_1 = (0, 1), contexts (1, u) with u in [0, 0.2] from a fixed
   * sequence, so arm 0 is better by at least 0.8 in every round. With a negligible noise (epsilon = 1e6)
   * DP-UCB is plain LinUCB and must settle on arm 0.
   */
  @Test
  void withNegligibleNoiseItPicksTheBestArmInLateRounds() {
    int horizon = 400;
    DpUcbPolicy policy = new DpUcbPolicy(spec(2, 2, horizon, 1e6, new EnvironmentBounds(Math.sqrt(2), 1, 0.05, 1)),
        source("separated"));
    assertTrue(policy.nodeSigma() < 0.05, "negligible against a Gram matrix of 400 rounds: " + policy.describe());
    int bestInLateRounds = 0;
    for (int t = 0; t < horizon; t++) {
      double u = 0.2 * ((t * 37) % 101) / 100.0;
      double[] x = {1, u};
      Decision decision = policy.decide(x);
      double reward = decision.arm() == 0 ? 1 : u;
      policy.update(decision, x, reward);
      if (t >= horizon - 100 && decision.arm() == 0) {
        bestInLateRounds++;
      }
    }
    assertTrue(bestInLateRounds >= 95, "best arm in " + bestInLateRounds + " of the last 100 rounds");
    assertEquals(horizon, policy.rounds());
    assertThrows(IllegalStateException.class, () -> policy.update(new Decision(0, Decision.Phase.GREEDY, horizon),
        new double[] {1, 0}, 1), "the horizon is the budget's");
  }

  @Test
  void theShiftedNoisyGramMatrixStaysPositiveDefiniteAtEpsilonOne() {
    SyntheticLinearEnvironment env = new SyntheticLinearEnvironment(5, 2, 3);
    DpUcbPolicy policy = new DpUcbPolicy(spec(5, 2, 300, 1, env.bounds()), source("pd"));
    for (int t = 0; t < 300; t++) {
      BanditRound round = env.nextRound();
      Decision decision = policy.decide(round.context());
      policy.update(decision, round.context(), round.observedReward(decision.arm()));
      for (int arm = 0; arm < 2; arm++) {
        DMatrixRMaj v = policy.shiftedGram(arm);
        assertTrue(smallestEigenvalue(v) > 0, "round " + t + ", arm " + arm);
        for (int i = 0; i < 5; i++) {
          for (int j = 0; j < 5; j++) {
            assertEquals(v.get(i, j), v.get(j, i), "symmetrised noise");
          }
        }
      }
    }
    assertEquals(0, policy.positiveDefiniteRepairs(), "the shift alone kept V positive definite");
    assertTrue(policy.privacySpent().orElseThrow().isWithin(new PrivacyBudget(1, 1.0 / 300)));
  }

  @Test
  void theSameKeyReproducesTheRunAndAnotherKeyDoesNot() {
    double[][] first = run(source("same"));
    assertArrayEquals(first[0], run(source("same"))[0]);
    assertArrayEquals(first[1], run(source("same"))[1]);
    assertFalse(Arrays.equals(first[1], run(source("other"))[1]), "different noise under another key");
  }

  /** The arms chosen and the final shifted Gram matrix of arm 0 of a short run. */
  private static double[][] run(KeyedNoiseSource noise) {
    SyntheticLinearEnvironment env = new SyntheticLinearEnvironment(10, 3, 9);
    DpUcbPolicy policy = new DpUcbPolicy(spec(10, 3, 100, 1, env.bounds()), noise);
    double[] arms = new double[100];
    for (int t = 0; t < 100; t++) {
      BanditRound round = env.nextRound();
      Decision decision = policy.decide(round.context());
      arms[t] = decision.arm();
      policy.update(decision, round.context(), round.observedReward(decision.arm()));
    }
    return new double[][] {arms, policy.shiftedGram(0).data};
  }

  @Test
  void theLeafPacksTheUpperTriangleAndTheRewardVector() {
    double[] leaf = new double[ArmLeaf.length(3)];
    ArmLeaf.pack(new double[] {1, 2, 3}, 0.5, leaf);
    assertArrayEquals(new double[] {1, 2, 3, 4, 6, 9, 0.5, 1, 1.5}, leaf);
    DMatrixRMaj gram = new DMatrixRMaj(3, 3);
    double[] u = new double[3];
    ArmLeaf.unpack(leaf, gram, u);
    assertArrayEquals(new double[] {1, 2, 3, 2, 4, 6, 3, 6, 9}, gram.data);
    assertArrayEquals(new double[] {0.5, 1, 1.5}, u);
    // ||x||_2 <= 1, |r| <= 1: S = sqrt(2 + 4) without rounding slack.
    assertEquals(Math.sqrt(6), ArmLeaf.concatenatedSensitivity(1, 1, 0), 1e-12);
  }

  private static double smallestEigenvalue(DMatrixRMaj symmetric) {
    EigenDecomposition_F64<DMatrixRMaj> eigen = DecompositionFactory_DDRM.eig(symmetric.numRows, false, true);
    assertTrue(eigen.decompose(symmetric.copy()));
    double smallest = Double.POSITIVE_INFINITY;
    for (int i = 0; i < symmetric.numRows; i++) {
      smallest = Math.min(smallest, eigen.getEigenvalue(i).real);
    }
    return smallest;
  }
}
