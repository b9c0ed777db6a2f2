package org.dpstream.core.distributed;

import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.dpstream.core.erm.ErmDataset;
import org.dpstream.core.erm.FeatureBounds;
import org.dpstream.core.erm.Regularizer;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.recorder.Measurement;
import org.dpstream.core.privacy.recorder.RecordedBy;
import org.dpstream.core.privacy.recorder.SensitivityRecorder;

/**
 * Sensitivity recorder of a DP-DDA node: neighbouring shards (one example replaced; features from the declared bound
 * to +-Double.MAX_VALUE, clamped as the node's data are) under one key. The first message is z + a_1 (g + nu) from
 * the same public start on both sides, so with the same noise it moves by a_1 times the change of the clipped
 * subgradient, at most 2L (Theorem 1's Delta, which DpDdaAccountant and so DpDdaCalibration take). The draws of
 * several rounds (the sample index and the noise of each) are the same.
 */
@RecordedBy({DdaNode.class, DpDdaCalibration.class})
class DdaRecorderTest {

  private static final int SAMPLES = 3;
  private static final int ROUNDS = 3;
  private static final FeatureBounds BOUNDS = FeatureBounds.uniform(2, 1);
  private static final DdaSettings SETTINGS = DdaSettings.of(1.0, 4.0, StepSchedule.generalConvex(1),
      new DualAveragingProx(Regularizer.l2(0.1), FeasibleSet.wholeSpace()), HingeLoss.ofRowNormBound(1));
  private static final GossipSampler LONE_NODE =
      new GossipSampler(GossipGraph.complete(1), 1.0, GossipSampler.Mode.RANDOM_MATCHING);

  record Shards(double[][] features, double[] labels, double[][] neighbourFeatures, double[] neighbourLabels) {}

  @Provide
  Arbitrary<Shards> shards() {
    Arbitrary<Double> value = Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.doubles().between(-1, 1)),
        Tuple.of(1, Arbitraries.of(Double.MAX_VALUE, -Double.MAX_VALUE, 1.0, -1.0, 0.0)));
    Arbitrary<double[]> row = value.array(double[].class).ofSize(2);
    Arbitrary<Double> label = Arbitraries.of(1.0, -1.0);
    return Combinators.combine(row.array(double[][].class).ofSize(SAMPLES),
        label.array(double[].class).ofSize(SAMPLES), row, label, Arbitraries.integers().between(0, SAMPLES - 1))
        .as((rows, labels, other, otherLabel, at) -> {
          double[][] neighbour = rows.clone();
          double[] neighbourLabels = labels.clone();
          neighbour[at] = other;
          neighbourLabels[at] = otherLabel;
          return new Shards(rows, labels, neighbour, neighbourLabels);
        });
  }

  @Property(tries = 100, seed = "3051")
  void theFirstMessageMovesByAtMostTwoLTimesItsWeight(@ForAll("shards") Shards shards) {
    double weight = SETTINGS.schedule().weight(1);
    double declared = 2 * SETTINGS.loss().lipschitz();
    SensitivityRecorder.of(
            (ErmDataset shard, KeyedNoiseSource source) -> firstMessage(shard, source),
            (double[] a, double[] b) -> {
              double measured = SensitivityRecorder.l2Distance(a, b) / weight;
              // z_1 + a_1 (g + nu): two roundings per coordinate of each message, 2 ulps on each side
              double rounding = 0;
              for (int j = 0; j < a.length; j++) {
                rounding += 2 * (Math.ulp(a[j]) + Math.ulp(b[j]));
              }
              return List.of(new Measurement("first message / a_1, l2", measured, declared,
                  rounding / weight + SensitivityRecorder.l2DistanceRounding(a.length, measured)));
            })
        .check(ErmDataset.clampedToBounds(shards.features(), shards.labels(), BOUNDS),
            ErmDataset.clampedToBounds(shards.neighbourFeatures(), shards.neighbourLabels(), BOUNDS));
  }

  private static double[] firstMessage(ErmDataset shard, KeyedNoiseSource source) {
    DdaNode node = new DdaNode(0, shard, SETTINGS, source, "recorder");
    KeyedGossipSchedule schedule = new KeyedGossipSchedule(LONE_NODE, source, "recorder");
    Messages transport = new Messages();
    for (long t = 1; t <= ROUNDS; t++) {
      GossipRound round = schedule.round(t);
      node.broadcast(round, transport);
      node.mix(round, transport);
    }
    return transport.first;
  }

  /** Keeps the lone node's first message; it mixes with nobody. */
  private static final class Messages implements GossipTransport {
    double[] first;

    @Override
    public void send(int fromNode, long round, Set<Integer> recipients, double[] message) {
      if (first == null) {
        first = message.clone();
      }
    }

    @Override
    public Map<Integer, double[]> receive(int node, long round, Set<Integer> expectedFrom) {
      return Map.of();
    }
  }
}
