package org.dpstream.service.bandit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.bandit.BanditSpec;
import org.dpstream.bandit.linear.DpLinearSpec;
import org.dpstream.bandit.linear.RidgeWeight;
import org.dpstream.bandit.linear.UndercalibratedDpLinear;
import org.dpstream.core.privacy.audit.CanaryDesign;
import org.dpstream.core.privacy.audit.OneRunAudit;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKeyRing;
import org.dpstream.schemas.DecisionResponse;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.service.config.BanditConfig;
import org.dpstream.service.config.BanditRegistry;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.metrics.BanditMetrics;
import org.dpstream.service.noise.NoiseContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one-run audit (Steinke, Nasr and Jagielski, "Privacy Auditing with One (1) Training Run", 2023) of a DP-Linear
 * bandit in the service's bandit topology: canary users are decided and learnt like any other, and what the service
 * publishes (dp.decisions and the arms' releases on dp.releases) must not reveal their coins beyond the bandit's epsilon.
 *
 * <p><b>The bandit</b> (a real config): DP-Linear, d = 2, K = 2, epsilon = 1, delta = 1e-5, horizon 2, statistics
 * released every round (refreshEvery 1) by the zCDP tree with exact discrete noise, contextClip c = 1 and rewardBound
 * B = 1. <b>The stream</b>: m = 2000 rounds of a canary user, context x = (1, 0) and reward +1 (coin heads) or -1,
 * each followed by a filler round, x = (0, 1) and reward 0. The two choices of a canary share the context, so they are
 * decided alike (the decision comes before the reward, from earlier releases) and contribute the same x x' to the
 * decided arm's Gram matrix; their moments x r differ by 2 e_1, 2 / sqrt(4.5) of the sensitivity a user can reach
 * (docs/bandit-privacy.md). Canaries are the first round of a two-round epoch, where a release moves by the leaf plus
 * one fresh tree node.
 *
 * <p><b>The observation and the score.</b> A release is the arm's ridge solution theta = (G~ + lambda_e I)^-1 b~, with
 * lambda_e the public ridge weight of the epoch ({@link RidgeWeight}). The canary's arm a is on dp.decisions. With
 * G~_00 close to N_a, the count of canaries decided for a so far (the fillers' contexts have no first coordinate),
 * canary i at round t scores (N_a(t) + lambda) theta_a0(t) - (N_a(t - 1) + lambda') theta_a0(t - 1), about b~_0's move:
 * S_i + Z, Z ~ N(0, sigma^2) of one node. The audit guesses heads for the 100 highest, tails for the 100 lowest.
 *
 * <p><b>The negative control</b> runs the same topology with DP-Linear calibrated for a tenth of the sensitivity
 * (c' = B' = c / sqrt(10), {@link UndercalibratedDpLinear}, test code, through the topology's {@link BanditPolicies}
 * seam); {@link #theControlsMarginIsDerived} derives from its node sigma that it is caught with 4 standard deviations
 * of wrong guesses to spare (the score's other terms, the Gram matrix's noise times theta, are a few percent of sigma
 * at the control's noise).
 */
class OneRunAuditBanditTest {

  private static final String BANDIT = "canary-bandit";
  private static final BanditConfig CANARIES = new BanditConfig(BANDIT, 2, 2, null, null, null, null, 1, 1e-5, 2, null,
      1.0, "10s", "drop", null, 1, "dp-linear", 1.0, 1, "zcdp", null, null, null);
  private static final ServiceConfig CONFIG =
      new ServiceConfig("bandit-audit", null, List.of(), Map.of(), 0, List.of(CANARIES)).withRoutingPartitions(1);
  private static final BanditRegistry REGISTRY = CONFIG.banditRegistry();
  private static final DpLinearSpec SPEC = (DpLinearSpec) REGISTRY.find(BANDIT).orElseThrow().spec();
  private static final CanaryDesign DESIGN = CanaryDesign.SERVICE;
  private static final OneRunAudit AUDIT = OneRunAudit.of(CANARIES.delta(), 0.05);

  @TempDir Path stateDir;

  @Test
  void theCalibratedBanditStaysBelowItsEpsilon() {
    OneRunAudit.Result result = run(BanditPolicies.PRIVATE, 1, 3L);
    System.out.println("one-run audit, DP-Linear bandit (sigma " + format(UndercalibratedDpLinear.nodeSigma(SPEC, 1))
        + "): " + result);
    assertTrue(result.epsilonLowerBound() < CANARIES.epsilon(), result.toString());
  }

  @Test
  void noiseForATenthOfTheSensitivityIsCaught() {
    BanditPolicies undercalibrated = new BanditPolicies() {
      @Override
      public ServedBandit start(BanditSpec spec, KeyedNoiseSource noise) {
        return ServedBandit.of(UndercalibratedDpLinear.start((DpLinearSpec) spec, noise, DESIGN.controlFactor()));
      }

      @Override
      public ServedBandit restore(BanditSpec spec, byte[] state, NoiseKeyRing keys) {
        throw new UnsupportedOperationException("the control keeps its bandit loaded; it never restores");
      }
    };
    OneRunAudit.Result result = run(undercalibrated, DESIGN.controlFactor(), 4L);
    System.out.println("one-run audit, DP-Linear bandit with noise for a tenth of the sensitivity (sigma "
        + format(UndercalibratedDpLinear.nodeSigma(SPEC, DESIGN.controlFactor())) + "): " + result);
    assertTrue(result.epsilonLowerBound() > CANARIES.epsilon(), result.toString());
  }

  /** The margin of {@link #noiseForATenthOfTheSensitivityIsCaught}, derived from the control's sigma before it runs. */
  @Test
  void theControlsMarginIsDerived() {
    double sigma = UndercalibratedDpLinear.nodeSigma(SPEC, DESIGN.controlFactor());
    double bound = DESIGN.derivedControlBound(AUDIT, 1, sigma);
    System.out.printf(Locale.ROOT, "one-run audit, DP-Linear control derived: sigma %.4f, bound with 4 sd more wrong"
        + " guesses than expected %.3f%n", sigma, bound);
    assertTrue(bound > CANARIES.epsilon(), "the control's margin: " + bound);
  }


  private static String format(double value) {
    return String.format(Locale.ROOT, "%.4f", value);
  }

  private OneRunAudit.Result run(BanditPolicies policies, double calibration, long coinSeed) {
    UniformRandomProvider coins = RandomSource.XO_RO_SHI_RO_128_PP.create(coinSeed);
    boolean[] heads = new boolean[DESIGN.canaries()];
    int rounds = 2 * DESIGN.canaries();
    try (BanditDriver driver = new BanditDriver(stateDir, "bandit-audit", REGISTRY, BanditMetrics.NONE, 1,
        BanditTopology.Deciding.IN_TOPOLOGY, NoiseContext.of(new KeyedNoiseSource(BanditTopologyTest.key())),
        policies)) {
      for (int round = 1; round <= rounds; round++) {
        boolean canary = round % 2 == 1;
        double reward = 0;
        if (canary) {
          heads[round / 2] = coins.nextBoolean();
          reward = heads[round / 2] ? 1 : -1;
        }
        String request = "round-" + round;
        driver.context(BANDIT, 1_000L * round, request, canary ? new double[] {1, 0} : new double[] {0, 1});
        driver.reward(BANDIT, 1_000L * round + 10, request, reward);
      }
      List<DecisionResponse> decisions = driver.decisions.readValuesToList();
      List<ModelRelease> releases = driver.releases.readValuesToList();
      assertEquals(rounds, decisions.size(), "one decision per context");
      assertEquals(2 * rounds, releases.size(), "every arm released every round");
      return DESIGN.guess(AUDIT, scores(decisions, releases, calibration), heads);
    }
  }

  /** Each canary's score from the decisions and the arms' releases (release 2 (t - 1) + a is arm a after round t). */
  private static double[] scores(List<DecisionResponse> decisions, List<ModelRelease> releases, double calibration) {
    double[] scores = new double[DESIGN.canaries()];
    long[] canariesOf = new long[SPEC.arms()];
    for (int round = 1; round <= decisions.size(); round += 2) {
      int arm = decisions.get(round - 1).getArm();
      ModelRelease after = releases.get(2 * (round - 1) + arm);
      assertEquals(round, after.getStep());
      assertEquals(SPEC.armModelId(arm), after.getModelId());
      double before = 0;
      if (round > 1) {
        ModelRelease previous = releases.get(2 * (round - 2) + arm);
        before = (canariesOf[arm] + ridge(previous, calibration)) * previous.getParameters().get(0);
      }
      canariesOf[arm]++;
      scores[round / 2] = (canariesOf[arm] + ridge(after, calibration)) * after.getParameters().get(0) - before;
    }
    return scores;
  }

  private static double ridge(ModelRelease release, double calibration) {
    return RidgeWeight.of(SPEC, UndercalibratedDpLinear.planFor(SPEC, calibration), release.getEpoch());
  }
}
