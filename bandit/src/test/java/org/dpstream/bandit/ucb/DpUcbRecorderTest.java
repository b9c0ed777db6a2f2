package org.dpstream.bandit.ucb;

import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.dpstream.bandit.ArmStatisticsChange;
import org.dpstream.bandit.NeighbouringRounds;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.recorder.RecordedBy;
import org.dpstream.core.privacy.recorder.SensitivityRecorder;

/**
 * Sensitivity recorder of DP-UCB's statistics (the experiments' baseline): neighbouring sequences of rounds (one
 * user's context and reward replaced; coordinates and rewards up to +-Double.MAX_VALUE) under one key. Every arm
 * releases after every round; at the release of the replaced round the concatenated releases of all K arms move by
 * at most the leaf sensitivity the trees are calibrated for ({@link ArmLeaf#concatenatedSensitivity}: the user's
 * round may move from one arm to another, two blocks change). Read as the change of the released statistics under
 * the same noise. The draws of the whole run (every arm's tree at every round) are the same.
 */
@RecordedBy(DpUcbPolicy.class)
class DpUcbRecorderTest {

  private static final int DIMENSION = 2;
  private static final int ARMS = 3;
  private static final int ROUNDS = 16;
  private static final DpUcbSpec SPEC = new DpUcbSpec("ucb-recorder", ARMS, DIMENSION, ROUNDS,
      new PrivacyBudget(1, 1e-5), 1.0, 1.0, 0.1, 1.0, DpUcbSpec.DEFAULT_RIDGE, DpUcbSpec.DEFAULT_FAILURE_PROBABILITY);

  @Provide
  Arbitrary<NeighbouringRounds> rounds() {
    return NeighbouringRounds.of(DIMENSION, ROUNDS);
  }

  @Property(tries = 60, seed = "3081")
  void theReleasedStatisticsMoveByAtMostTheLeafSensitivity(@ForAll("rounds") NeighbouringRounds rounds) {
    double declared = new DpUcbPolicy(SPEC, new KeyedNoiseSource(org.dpstream.core.privacy.random.NoiseKey.ofBytes(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32}))).leafSensitivity();
    SensitivityRecorder.of(
            (List<double[]> stream, KeyedNoiseSource source) -> {
              DpUcbPolicy policy = new DpUcbPolicy(SPEC, source);
              double[][] atRelease = null;
              for (int t = 0; t < stream.size(); t++) {
                double[] context = Arrays.copyOf(stream.get(t), DIMENSION);
                policy.update(policy.decide(context), context, stream.get(t)[DIMENSION]);
                if (t == rounds.replaced()) {
                  atRelease = ArmStatisticsChange.released(ARMS, policy::releasedStatistics);
                }
              }
              return atRelease;
            },
            ArmStatisticsChange.against("at the release of round " + rounds.replaced(), declared))
        .check(rounds.rounds(), rounds.neighbour());
  }

  @Example
  void nonFiniteRoundsAreRefusedBeforeAnyDraw() {
    SensitivityRecorder<double[], double[]> round = SensitivityRecorder.of((double[] r, KeyedNoiseSource source) -> {
      DpUcbPolicy policy = new DpUcbPolicy(SPEC, source);
      double[] context = Arrays.copyOf(r, DIMENSION);
      policy.update(policy.decide(context), context, r[DIMENSION]);
      return r;
    }, (a, b) -> List.of());
    for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
      round.assertRefusedBeforeAnyDraw(new double[] {bad, 0, 1});
      round.assertRefusedBeforeAnyDraw(new double[] {0, 0, bad});
    }
  }
}
