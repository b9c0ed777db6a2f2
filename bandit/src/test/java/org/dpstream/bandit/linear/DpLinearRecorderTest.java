package org.dpstream.bandit.linear;

import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.dpstream.bandit.Decision;
import org.dpstream.bandit.ArmStatisticsChange;
import org.dpstream.bandit.NeighbouringRounds;
import org.dpstream.bandit.DefaultPolicy;
import org.dpstream.core.online.AccountantChoice;
import org.dpstream.core.online.NoiseChoice;
import org.dpstream.core.privacy.accounting.GaussianZcdpMap;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.recorder.RecordedBy;
import org.dpstream.core.privacy.recorder.SensitivityRecorder;

/**
 * Sensitivity recorder of DP-Linear's statistics, the default policy wherever its statistics fit: neighbouring
 * sequences of rounds (one user's context and reward replaced; coordinates and rewards up to +-Double.MAX_VALUE)
 * under one key. At the first release after the replaced round, the concatenated leaves of all K arms move by at most
 * Delta, the leaf sensitivity every arm's prefix-sum mechanism is calibrated for (the user's contribution may move
 * from one arm to another: two leaves change). Read as the change of the released statistics under the same noise.
 * The draws of the whole run (every arm's noise at every release) are the same.
 */
@RecordedBy(DpLinearPolicy.class)
class DpLinearRecorderTest {

  private static final int DIMENSION = 2;
  private static final int ARMS = 3;
  private static final int ROUNDS = 24;
  private static final int REFRESH = 4;

  @Provide
  Arbitrary<NeighbouringRounds> rounds() {
    return NeighbouringRounds.of(DIMENSION, ROUNDS);
  }

  /** The default policy's statistics (the factorization accountant, DpLinearSpec's default). */
  @Property(tries = 60, seed = "3061")
  void defaultStatisticsMoveByAtMostDelta(@ForAll("rounds") NeighbouringRounds rounds) {
    DpLinearSpec spec = spec(DpLinearSpec.DEFAULT_ACCOUNTANT);
    if (!DefaultPolicy.nameFor(DIMENSION, ARMS, ROUNDS, 1).equals(DpLinearPolicy.NAME)) {
      throw new AssertionError("the default policy of this spec is no longer DP-Linear");
    }
    record(spec, rounds);
  }

  @Property(tries = 60, seed = "3062")
  void treeStatisticsMoveByAtMostDelta(@ForAll("rounds") NeighbouringRounds rounds) {
    record(spec(AccountantChoice.ZCDP), rounds);
  }

  @Example
  void nonFiniteRoundsAreRefusedBeforeAnyDraw() {
    DpLinearSpec spec = spec(DpLinearSpec.DEFAULT_ACCOUNTANT);
    SensitivityRecorder<double[], double[]> round = SensitivityRecorder.of((double[] r, KeyedNoiseSource source) -> {
      DpLinearPolicy policy = DpLinearPolicy.start(spec, source);
      for (int t = 0; t < REFRESH; t++) { // the refused round would be the first release's
        double[] context = java.util.Arrays.copyOf(r, DIMENSION);
        policy.update(policy.decide(context), context, r[DIMENSION]);
      }
      return r;
    }, (a, b) -> List.of());
    for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
      round.assertRefusedBeforeAnyDraw(new double[] {bad, 0, 1});
      round.assertRefusedBeforeAnyDraw(new double[] {0, 0, bad});
    }
  }

  private static DpLinearSpec spec(AccountantChoice accountant) {
    return new DpLinearSpec("linear-recorder", DIMENSION, ARMS, 1, 1, new PrivacyBudget(1, 1e-5), ROUNDS, REFRESH,
        accountant, NoiseChoice.CONTINUOUS);
  }

  private static void record(DpLinearSpec spec, NeighbouringRounds rounds) {
    double declared = ((GaussianZcdpMap) spec.plan().calibration()).l2Sensitivity();
    int releaseAfter = (rounds.replaced() / REFRESH + 1) * REFRESH; // rounds learnt by the first release with it
    SensitivityRecorder.of(
            (List<double[]> stream, KeyedNoiseSource source) -> {
              DpLinearPolicy policy = DpLinearPolicy.start(spec, source);
              double[][] atRelease = null;
              for (int t = 0; t < stream.size(); t++) {
                double[] context = java.util.Arrays.copyOf(stream.get(t), DIMENSION);
                Decision decision = policy.decide(context);
                policy.update(decision, context, stream.get(t)[DIMENSION]);
                if (t + 1 == releaseAfter) {
                  atRelease = ArmStatisticsChange.released(ARMS, policy::releasedStatistics);
                }
              }
              return atRelease;
            },
            ArmStatisticsChange.against("at the release after round " + rounds.replaced(), declared))
        .check(rounds.rounds(), rounds.neighbour());
  }
}
