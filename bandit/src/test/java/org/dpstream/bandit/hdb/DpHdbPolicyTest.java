package org.dpstream.bandit.hdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpstream.bandit.Decision;
import org.dpstream.core.loss.CanonicalLink;
import org.dpstream.core.loss.DataBounds;
import org.dpstream.core.online.NoiseChoice;
import org.dpstream.core.online.OnlineEstimator;
import org.dpstream.core.online.OnlineEstimators;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.junit.jupiter.api.Test;

class DpHdbPolicyTest {

  private static final PrivacyBudget BUDGET = new PrivacyBudget(1, 1e-5);
  private static final DataBounds UNIT_CONTEXTS = new DataBounds(1, 1);

  private static DpHdbSpec linearSpec(String id, int d, long t0, long horizon) {
    return new DpHdbSpec(id, d, SeparatedLinearInstance.ARMS, CanonicalLink.IDENTITY, 1, 0.4, t0, BUDGET, horizon,
        UNIT_CONTEXTS);
  }

  /** Runs decide-observe-update for {@code rounds} rounds; returns the regret of each round. */
  private static double[] play(DpHdbPolicy policy, SeparatedLinearInstance instance, int rounds, int[] bestPicked) {
    double[] regret = new double[rounds];
    for (int t = 0; t < rounds; t++) {
      double[] x = instance.nextContext();
      Decision decision = policy.decide(x);
      regret[t] = instance.regret(x, decision.arm());
      if (decision.arm() == instance.bestArm(x)) {
        bestPicked[t] = 1;
      }
      policy.update(decision, x, instance.nextReward(x, decision.arm()));
    }
    return regret;
  }

  /**
   * The arms' noise is in the spec's fingerprint, so a bandit saved with one sampler is not resumed with the other;
   * continuous arms keep the digest of the specs that had no noise field (their saved states still resume).
   */
  @Test
  void theArmsNoiseIsInTheFingerprintAndContinuousKeepsTheOldDigest() throws Exception {
    DpHdbSpec discrete = linearSpec("noise", 3, 2, 100);
    DpHdbSpec continuous = new DpHdbSpec(discrete.banditId(), discrete.dimension(), discrete.arms(), discrete.link(),
        discrete.radius(), discrete.preSelectionGap(), discrete.warmUpRoundsPerArm(), discrete.budget(),
        discrete.horizon(), discrete.data(), NoiseChoice.CONTINUOUS);
    assertEquals(NoiseChoice.DISCRETE, discrete.armNoise());
    String old = String.join("|", "dp-hdb-spec-v1", "noise", "3", Integer.toString(discrete.arms()),
        discrete.link().toString(),
        Double.toString(discrete.radius()), Double.toString(discrete.preSelectionGap()), "2",
        Double.toString(discrete.budget().epsilon()), Double.toString(discrete.budget().delta()), "100",
        Double.toString(discrete.data().featureDualNorm()), Double.toString(discrete.data().labelBound()));
    byte[] oldDigest = MessageDigest.getInstance("SHA-256")
        .digest(old.getBytes(StandardCharsets.UTF_8));
    assertArrayEquals(oldDigest, continuous.fingerprint());
    assertTrue(!Arrays.equals(oldDigest, discrete.fingerprint()));
  }

  @Test
  void withNearlyNoNoiseRegretGrowsSublinearlyAndLateRoundsPickTheBestArm() {
    int rounds = 8000;
    DpHdbSpec spec = linearSpec("regret", 20, 200, rounds);
    DpHdbPolicy policy = DpHdbPolicy.start(spec, TestRandomness.source(1), PofwArmsWithNoise.NEARLY_NO_NOISE);
    int[] bestPicked = new int[rounds];
    double[] regret = play(policy, new SeparatedLinearInstance(20, 11), rounds, bestPicked);

    double[] cumulative = new double[rounds + 1];
    for (int t = 0; t < rounds; t++) {
      cumulative[t + 1] = cumulative[t] + regret[t];
    }
    // Regret after the warm-up over doubling windows: sublinear means each window adds less per round.
    int warmUp = (int) spec.warmUpRounds();
    double early = (cumulative[1000] - cumulative[warmUp]) / (1000 - warmUp);
    double middle = (cumulative[4000] - cumulative[2000]) / 2000;
    double late = (cumulative[8000] - cumulative[4000]) / 4000;
    double slope = Math.log((cumulative[8000] - cumulative[warmUp]) / (cumulative[2000] - cumulative[warmUp]))
        / Math.log((8000.0 - warmUp) / (2000.0 - warmUp));
    int bestLate = 0;
    for (int t = rounds - 1000; t < rounds; t++) {
      bestLate += bestPicked[t];
    }
    System.out.printf("regret per round: rounds %d-1000 %.5f, 2000-4000 %.5f, 4000-8000 %.5f; "
        + "log-log slope of greedy regret %.3f; best arm in the last 1000 rounds %d; R(T) = %.2f%n",
        warmUp, early, middle, late, slope, bestLate, cumulative[rounds]);
    assertTrue(late < middle && middle < early, "per-round regret must fall");
    assertTrue(slope < 0.5, "greedy-phase regret must grow sublinearly, slope " + slope);
    assertTrue(bestLate >= 900, "best arm in " + bestLate + " of the last 1000 rounds");
  }

  @Test
  void theSyntheticUpdateKeepsEveryArmsStepCounterAtTheRound() {
    // Logistic link: the synthetic label zeta(0) = 1/2 must be admissible.
    long t0 = 3;
    DpHdbSpec spec = new DpHdbSpec("steps", 6, 4, CanonicalLink.LOGISTIC, 1, 0.2, t0, BUDGET, 100, UNIT_CONTEXTS);
    assertEquals(0.5, spec.syntheticReward());
    DpHdbPolicy policy = DpHdbPolicy.start(spec, TestRandomness.source(2));
    UniformRandomProvider bits = TestRandomness.bits(3);
    double[][] atBlockEnd = new double[4][];
    for (int round = 0; round < 100; round++) {
      double[] x = new double[6];
      for (int j = 0; j < x.length; j++) {
        x[j] = 2 * bits.nextDouble() - 1;
      }
      Decision decision = policy.decide(x);
      boolean warmUp = round < 4 * t0;
      assertEquals(warmUp ? Decision.Phase.WARM_UP : Decision.Phase.GREEDY, decision.phase());
      if (warmUp) {
        assertEquals(round / t0, decision.arm(), "forced sampling pulls arm floor(round / t0)");
      }
      policy.update(decision, x, bits.nextBoolean() ? 1 : 0);
      for (int arm = 0; arm < 4; arm++) {
        if (round + 1 == (arm + 1) * t0) {
          atBlockEnd[arm] = policy.armParameters(arm);
        }
        assertEquals(round + 1, policy.armSteps(arm), "arm " + arm + " after round " + round);
        assertEquals(round + 1 >= (arm + 1) * t0, policy.forcedSamplingParameters(arm).isPresent(),
            "arm " + arm + "'s forced-sampling estimator is frozen exactly when its block has ended");
      }
    }
    // Frozen means frozen: theta_{t0,i} is the arm's parameters at round (i + 1) t0, not later ones.
    for (int arm = 0; arm < 4; arm++) {
      assertArrayEquals(atBlockEnd[arm], policy.forcedSamplingParameters(arm).orElseThrow(), 0.0);
    }
    assertTrue(policy.privacySpent().isWithinBudget());
  }

  /**
   * Algorithm 3 written as the paper's loop, over the same DP-POFW arms (their noise of the arms' kind), to compare
   * with decide/update.
   */
  private static List<Object> papersLoop(DpHdbSpec spec, KeyedNoiseSource source, SeparatedLinearInstance env) {
    int arms = spec.arms();
    OnlineEstimator[] estimators = new OnlineEstimator[arms];
    for (int i = 0; i < arms; i++) {
      estimators[i] = OnlineEstimators.start(spec.armSpec(i), source.kind(DpHdbPolicy.NOISE_KIND));
    }
    double[][] forcedSampling = new double[arms][];
    List<Object> trace = new ArrayList<>();
    double[] zero = new double[spec.dimension()];
    for (long t = 0; t < spec.horizon(); t++) {
      double[] x = env.nextContext();
      int chosen;
      if (t < spec.warmUpRounds()) {
        chosen = (int) (t / spec.warmUpRoundsPerArm()); // lines 3-6
      } else {
        double best = Double.NEGATIVE_INFINITY; // line 13
        for (int i = 0; i < arms; i++) {
          best = Math.max(best, spec.link().mean(SeparatedLinearInstance.dot(forcedSampling[i], x)));
        }
        chosen = -1; // line 14
        for (int i = 0; i < arms; i++) {
          boolean preSelected = spec.link().mean(SeparatedLinearInstance.dot(forcedSampling[i], x)) > best - spec.preSelectionGap() / 2;
          if (preSelected && (chosen < 0 || spec.link().mean(SeparatedLinearInstance.dot(estimators[i].parameters(), x))
              > spec.link().mean(SeparatedLinearInstance.dot(estimators[chosen].parameters(), x)))) {
            chosen = i;
          }
        }
      }
      double r = env.nextReward(x, chosen); // line 15
      for (int i = 0; i < arms; i++) { // lines 7-8, 16-17
        if (i == chosen) {
          estimators[i].step(x, r);
        } else {
          estimators[i].step(zero, spec.syntheticReward());
        }
      }
      if (t < spec.warmUpRounds() && (t + 1) % spec.warmUpRoundsPerArm() == 0) {
        forcedSampling[chosen] = estimators[chosen].parameters();
      }
      trace.add(chosen);
      for (OnlineEstimator estimator : estimators) {
        trace.add(estimator.parameters());
      }
    }
    return trace;
  }

  private static List<Object> decideUpdate(DpHdbPolicy policy, long rounds, SeparatedLinearInstance env) {
    List<Object> trace = new ArrayList<>();
    for (long t = 0; t < rounds; t++) {
      double[] x = env.nextContext();
      Decision decision = policy.decide(x);
      policy.update(decision, x, env.nextReward(x, decision.arm()));
      trace.add(decision.arm());
      for (int i = 0; i < policy.arms(); i++) {
        trace.add(policy.armParameters(i));
      }
    }
    return trace;
  }

  private static void assertSameTrace(List<Object> expected, List<Object> actual) {
    assertEquals(expected.size(), actual.size());
    for (int k = 0; k < expected.size(); k++) {
      if (expected.get(k) instanceof double[] parameters) {
        assertArrayEquals(parameters, (double[]) actual.get(k), 0.0, "entry " + k); // bit for bit
      } else {
        assertEquals(expected.get(k), actual.get(k), "entry " + k);
      }
    }
  }

  @Test
  void theDecideUpdateSplitReproducesThePapersLoopBitForBit() {
    DpHdbSpec spec = DpHdbSpec.withDefaultWarmUp("paper-loop", 10, SeparatedLinearInstance.ARMS,
        CanonicalLink.IDENTITY, 1, 0.4, BUDGET, 600, UNIT_CONTEXTS);
    assertEquals(55, spec.warmUpRoundsPerArm()); // floor(ln(6000) ln(600)) = floor(55.7)
    List<Object> expected = papersLoop(spec, TestRandomness.source(4), new SeparatedLinearInstance(10, 5));
    List<Object> actual = decideUpdate(
        DpHdbPolicy.start(spec, TestRandomness.source(4)), spec.horizon(), new SeparatedLinearInstance(10, 5));
    assertSameTrace(expected, actual);
    long greedyArmsDistinct = actual.stream().skip(4 * spec.warmUpRounds()).filter(Integer.class::isInstance)
        .distinct().count();
    assertTrue(greedyArmsDistinct >= 2, "the greedy phase must exercise more than one arm");
  }

  @Test
  void aRestoredBanditContinuesBitForBit() throws IOException {
    DpHdbSpec spec = linearSpec("resume", 8, 20, 300);
    DpHdbPolicy original = DpHdbPolicy.start(spec, TestRandomness.source(6));
    SeparatedLinearInstance env = new SeparatedLinearInstance(8, 7);
    decideUpdate(original, 50, env); // in arm 2's forced block: arms 0 and 1 frozen, arm 2 not yet
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    original.writeState(new DataOutputStream(bytes));
    DpHdbPolicy resumed = DpHdbPolicy.restore(
        spec, new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())), TestRandomness.source(6));
    assertEquals(50, resumed.rounds());
    assertArrayEquals(original.forcedSamplingParameters(1).orElseThrow(),
        resumed.forcedSamplingParameters(1).orElseThrow(), 0.0);
    assertTrue(resumed.forcedSamplingParameters(2).isEmpty());

    List<Object> continued = decideUpdate(original, 250, new SeparatedLinearInstance(8, 8));
    List<Object> afterRestore = decideUpdate(resumed, 250, new SeparatedLinearInstance(8, 8));
    assertSameTrace(continued, afterRestore);
  }

  @Test
  void stateOfAnotherSpecOrVersionIsRefused() throws IOException {
    DpHdbSpec spec = linearSpec("refuse", 4, 2, 50);
    DpHdbPolicy policy = DpHdbPolicy.start(spec, TestRandomness.source(9));
    decideUpdate(policy, 10, new SeparatedLinearInstance(4, 10));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    policy.writeState(new DataOutputStream(bytes));
    byte[] state = bytes.toByteArray();

    DpHdbSpec otherBudget = new DpHdbSpec("refuse", 4, 3, CanonicalLink.IDENTITY, 1, 0.4, 2,
        new PrivacyBudget(2, 1e-5), 50, UNIT_CONTEXTS);
    assertThrows(IOException.class, () -> DpHdbPolicy.restore(
        otherBudget, new DataInputStream(new ByteArrayInputStream(state)), TestRandomness.source(9)));
    byte[] otherVersion = state.clone();
    otherVersion[0] = (byte) (DpHdbPolicy.STATE_VERSION + 1);
    assertThrows(IOException.class, () -> DpHdbPolicy.restore(
        spec, new DataInputStream(new ByteArrayInputStream(otherVersion)), TestRandomness.source(9)));
  }

  @Test
  void eachArmGetsHalfTheBudgetAndTheirSumStaysWithinItAtTheHorizon() {
    DpHdbSpec spec = linearSpec("budget", 5, 10, 200);
    assertEquals(new PrivacyBudget(0.5, 5e-6), spec.armBudget());
    assertEquals(new PrivacyBudget(0.5, 5e-6), spec.armSpec(2).budget());
    assertEquals("budget/arm-2", spec.armSpec(2).modelId());
    DpHdbSpec oneArm = new DpHdbSpec("one", 5, 1, CanonicalLink.IDENTITY, 1, 0.4, 10, BUDGET, 200, UNIT_CONTEXTS);
    assertEquals(BUDGET, oneArm.armBudget(), "with one arm a user affects one stream");

    DpHdbPolicy policy = DpHdbPolicy.start(spec, TestRandomness.source(12));
    decideUpdate(policy, 200, new SeparatedLinearInstance(5, 13));
    JointPrivacyLoss spent = policy.privacySpent();
    double armEpsilon = policy.armLedger(0).spentEpsilon();
    System.out.printf("at the horizon: arm spent %s, joint %s%n", policy.armLedger(0), spent);
    assertEquals(2 * armEpsilon, spent.epsilon(), "all arms spend alike; doubling is exact");
    assertTrue(spent.isWithinBudget(), spent.toString());
    assertTrue(armEpsilon <= 0.5);
  }

  @Test
  void defaultWarmUpIsTheAuthorsFormula() {
    // int(log(d T) log(T) / eps^2) for d = 50, T = 10000, eps = 1: 13.122 * 9.2103 = 120.86
    assertEquals(120, DpHdbSpec.defaultWarmUpRoundsPerArm(50, 10_000, 1));
    assertEquals(483, DpHdbSpec.defaultWarmUpRoundsPerArm(50, 10_000, 0.5));
    assertEquals(1, DpHdbSpec.defaultWarmUpRoundsPerArm(1, 2, 100));
  }

  @Test
  void invalidInputChangesNothing() {
    DpHdbSpec spec = new DpHdbSpec("invalid", 3, 2, CanonicalLink.LOGISTIC, 1, 0.2, 1, BUDGET, 50, UNIT_CONTEXTS);
    DpHdbPolicy policy = DpHdbPolicy.start(spec, TestRandomness.source(14));
    double[] x = {0.5, -0.5, 1};
    Decision decision = policy.decide(x);
    assertThrows(IllegalArgumentException.class, () -> policy.decide(new double[] {1, 2}));
    assertThrows(IllegalArgumentException.class, () -> policy.decide(new double[] {1, Double.NaN, 0}));
    assertThrows(IllegalArgumentException.class, () -> policy.update(decision, x, 1.5), "logistic rewards lie in [0, 1]");
    assertThrows(IllegalArgumentException.class, () -> policy.update(new Decision(2, Decision.Phase.GREEDY, 0), x, 1));
    assertThrows(IllegalArgumentException.class, () -> policy.update(new Decision(0, Decision.Phase.GREEDY, 1), x, 1));
    assertEquals(0, policy.rounds());
    assertEquals(0, policy.armSteps(0));
    assertEquals(0, policy.armSteps(1));
  }

  /**
   * Any finite context gets a decision and any finite (context, reward) pair is learnt: both are clipped
   * to the declared bounds first, so scores and gradients stay finite (a context of 1e200 used to get a
   * decision whose reward then failed the arm's step).
   */
  @Test
  void hugeFiniteContextsAndRewardsAreClippedForDecidingAndLearning() {
    DpHdbSpec spec = new DpHdbSpec("huge", 3, 2, CanonicalLink.IDENTITY, 1, 0.2, 1, BUDGET, 50, UNIT_CONTEXTS);
    DpHdbPolicy policy = DpHdbPolicy.start(spec, TestRandomness.source(16));
    double[][] contexts = {
        {1e200, 0.1, 0.1}, {Double.MAX_VALUE, -Double.MAX_VALUE, Double.MAX_VALUE}, {Double.MIN_VALUE, -0.0, 0}};
    double[] rewards = {0.1, -Double.MAX_VALUE, Double.MAX_VALUE};
    for (int round = 0; round < 6; round++) {
      double[] x = contexts[round % 3];
      Decision decision = policy.decide(x);
      assertTrue(decision.arm() >= 0 && decision.arm() < 2);
      policy.update(decision, x, rewards[round % 3]);
      for (int arm = 0; arm < 2; arm++) {
        for (double theta : policy.armParameters(arm)) {
          assertTrue(Double.isFinite(theta));
        }
      }
    }
    assertEquals(Decision.Phase.GREEDY, policy.phase());
    assertEquals(6, policy.rounds());
  }

  @Test
  void pastTheHorizonTheArmsStartANewCompositionEpochInLockstep() {
    DpHdbSpec spec = new DpHdbSpec("exhaust", 3, 2, CanonicalLink.IDENTITY, 1, 0.2, 1, BUDGET, 2, UNIT_CONTEXTS);
    DpHdbPolicy policy = DpHdbPolicy.start(spec, TestRandomness.source(15));
    double[] x = {0.5, -0.5, 1};
    for (int t = 0; t < 2; t++) {
      policy.update(policy.decide(x), x, 0.3);
    }
    // Past the horizon DP-POFW starts a new composition epoch (each sample is in one epoch), every arm at once.
    policy.update(policy.decide(x), x, 0.3);
    assertEquals(3, policy.armSteps(0));
    assertEquals(3, policy.armSteps(1));
    assertTrue(policy.privacySpent().isWithinBudget());
    assertEquals(1, policy.armLedger(0).epoch());
    assertEquals(1, policy.armLedger(1).epoch());
  }
}
