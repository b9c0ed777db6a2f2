package org.dpstream.bandit.hdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.dpstream.bandit.Decision;
import org.dpstream.bandit.release.ReleasedBandit;
import org.dpstream.core.loss.CanonicalLink;
import org.dpstream.core.loss.DataBounds;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.junit.jupiter.api.Test;

class DpHdbDecisionRuleTest {

  private static final int D = 3;

  private static DpHdbSpec spec(double gap) {
    return new DpHdbSpec("b", D, 3, CanonicalLink.IDENTITY, 1, gap, 2, new PrivacyBudget(1, 1e-5), 100,
        new DataBounds(1, 1));
  }

  private static ReleasedBandit release(long step, double[][] current, double[][] forcedSampling) {
    return new ReleasedBandit("b", DpHdbPolicy.NAME, step, current,
        forcedSampling == null ? Map.of() : Map.of(DpHdbDecisionRule.FORCED_SAMPLING, forcedSampling));
  }

  @Test
  void warmUpPullsTheArmOfTheStepsBlockWhateverTheContext() {
    DpHdbDecisionRule rule = new DpHdbDecisionRule(spec(0.1));
    double[][] zeros = new double[3][D];
    // t0 = 2, K = 3: steps 0,1 -> arm 0; 2,3 -> arm 1; 4,5 -> arm 2; 6 is greedy.
    assertEquals(new Decision(0, Decision.Phase.WARM_UP, 1), rule.decide(release(1, zeros, null), new double[] {5, 0, 0}, null));
    assertEquals(new Decision(1, Decision.Phase.WARM_UP, 2), rule.decide(release(2, zeros, null), new double[] {0, 0, 0}, null));
    assertEquals(new Decision(2, Decision.Phase.WARM_UP, 5), rule.decide(release(5, zeros, null), new double[] {0, 9, 0}, null));
  }

  @Test
  void greedyChoosesAmongPreSelectedArmsByTheCurrentParameters() {
    DpHdbDecisionRule rule = new DpHdbDecisionRule(spec(0.2));
    double[] x = {1, 0, 0};
    // Forced-sampling means at x: 0.5, 0.45, 0.2: arms 0 and 1 are within h/2 = 0.1 of the best, arm 2 is not.
    double[][] frozen = {{0.5, 0, 0}, {0.45, 0, 0}, {0.2, 0, 0}};
    // Current means: arm 2 is best but not pre-selected; among {0, 1} arm 1 is.
    double[][] current = {{0.1, 0, 0}, {0.3, 0, 0}, {0.9, 0, 0}};
    assertEquals(new Decision(1, Decision.Phase.GREEDY, 6), rule.decide(release(6, current, frozen), x, null));
    // Ties go to the smaller index.
    double[][] tied = {{0.3, 0, 0}, {0.3, 0, 0}, {0.9, 0, 0}};
    assertEquals(0, rule.decide(release(7, tied, frozen), x, null).arm());
  }

  @Test
  void contextsAreClippedToTheDeclaredBoundBeforeScoring() {
    // With a logistic link and huge contexts the unclipped scores saturate; clipped to ||x||_inf <= 1 they differ.
    DpHdbSpec logistic = new DpHdbSpec("b", D, 3, CanonicalLink.LOGISTIC, 1, Double.POSITIVE_INFINITY, 2,
        new PrivacyBudget(1, 1e-5), 100, new DataBounds(1, 1));
    DpHdbDecisionRule rule = new DpHdbDecisionRule(logistic);
    double[][] frozen = new double[3][D];
    double[][] current = {{0.5, 0, 0}, {0.6, 0, 0}, {0, 0, 0}};
    assertEquals(1, rule.decide(release(6, current, frozen), new double[] {1e6, 0, 0}, null).arm());
  }

  @Test
  void aGreedyReleaseWithoutForcedSamplingEstimatorsOrOfAnotherBanditIsRefused() {
    DpHdbDecisionRule rule = new DpHdbDecisionRule(spec(0.1));
    double[][] current = new double[3][D];
    assertThrows(IllegalArgumentException.class, () -> rule.decide(release(6, current, null), new double[D], null));
    ReleasedBandit other = new ReleasedBandit("c", DpHdbPolicy.NAME, 1, current, Map.of());
    assertThrows(IllegalArgumentException.class, () -> rule.decide(other, new double[D], null));
    assertThrows(IllegalArgumentException.class,
        () -> rule.decide(release(1, current, null), new double[] {0, Double.NaN, 0}, null));
  }

  @Test
  void theDecisionFromAPolicysReleasesIsThePolicysOwn() {
    DpHdbSpec spec = new DpHdbSpec("same", 20, SeparatedLinearInstance.ARMS, CanonicalLink.IDENTITY, 1, 0.4, 30,
        new PrivacyBudget(1, 1e-5), 2000, new DataBounds(1, 1));
    DpHdbPolicy policy = DpHdbPolicy.start(spec, TestRandomness.source(3));
    DpHdbDecisionRule rule = new DpHdbDecisionRule(spec);
    SeparatedLinearInstance instance = new SeparatedLinearInstance(20, 5);
    int greedy = 0;
    for (int t = 0; t < 600; t++) {
      double[] x = instance.nextContext();
      Decision own = policy.decide(x);
      assertEquals(own, rule.decide(releaseOf(policy), x, null), "round " + t);
      greedy += own.phase() == Decision.Phase.GREEDY ? 1 : 0;
      policy.update(own, x, instance.nextReward(x, own.arm()));
    }
    assertEquals(600 - spec.warmUpRounds(), greedy);
  }

  private static ReleasedBandit releaseOf(DpHdbPolicy policy) {
    int k = policy.arms();
    double[][] current = new double[k][];
    double[][] frozen = new double[k][];
    for (int i = 0; i < k; i++) {
      current[i] = policy.armParameters(i);
      frozen[i] = policy.forcedSamplingParameters(i).orElse(null);
    }
    boolean greedy = policy.phase() == Decision.Phase.GREEDY;
    return new ReleasedBandit(policy.spec().banditId(), DpHdbPolicy.NAME, policy.rounds(), current,
        greedy ? Map.of(DpHdbDecisionRule.FORCED_SAMPLING, frozen) : Map.of());
  }
}
