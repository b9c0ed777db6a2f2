package org.dpstream.core.distributed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.dpstream.core.erm.ErmDataset;
import org.dpstream.core.erm.Regularizer;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKeyRing;
import org.dpstream.core.privacy.testing.TestKeys;
import org.dpstream.core.state.StateBindingException;
import org.junit.jupiter.api.Test;

class DdaRunSpecTest {

  private static final int NODES = 4;
  private static final List<ErmDataset> SHARDS =
      DdaSimulation.partition(SeparableProblems.unitNormSeparable(NODES * 20, 3, 0.1, 3L), NODES);

  private static DdaRunSpec spec(String runId, double lambda, double sigma) {
    DualAveragingProx prox = new DualAveragingProx(Regularizer.l2(lambda), FeasibleSet.wholeSpace());
    return new DdaRunSpec(runId,
        new GossipSampler(GossipGraph.complete(NODES), 0.5, GossipSampler.Mode.RANDOM_MATCHING),
        DdaSettings.of(0.5, sigma, StepSchedule.stronglyConvex(5), prox, HingeLoss.ofRowNormBound(1)), 60, 20, 3);
  }

  @Test
  void nodesBuiltOneByOneFromTheSpecReproduceItsSimulation() {
    DdaRunSpec spec = spec("r", 0.01, 0.4);
    KeyedNoiseSource source = new KeyedNoiseSource(TestKeys.seeded(4L));
    DdaSimulation simulation = spec.simulation(SHARDS, source);
    List<DdaNode> nodes = java.util.stream.IntStream.range(0, NODES)
        .mapToObj(i -> spec.newNode(i, SHARDS.get(i), source)).toList();
    KeyedGossipSchedule schedule = spec.schedule(source);
    InMemoryGossipTransport transport = new InMemoryGossipTransport();
    for (long t = 1; t <= spec.rounds(); t++) {
      simulation.runRound();
      GossipRound round = schedule.round(t);
      nodes.forEach(node -> node.broadcast(round, transport));
      nodes.forEach(node -> node.mix(round, transport));
    }
    for (int i = 0; i < NODES; i++) {
      assertArrayEquals(simulation.node(i).averagedModel(), nodes.get(i).averagedModel(), 0.0);
    }
  }

  @Test
  void refusesAShardThatDoesNotMatchTheDeclaredSizeOrDimension() {
    DdaRunSpec spec = spec("r", 0.01, 0.4);
    KeyedNoiseSource source = new KeyedNoiseSource(TestKeys.seeded(4L));
    ErmDataset larger = DdaSimulation.partition(SeparableProblems.unitNormSeparable(42, 3, 0.1, 3L), 2).get(0);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> spec.newNode(0, larger, source));
    assertTrue(e.getMessage().contains("q = 20"), e.getMessage());
    ErmDataset wider = DdaSimulation.partition(SeparableProblems.unitNormSeparable(80, 4, 0.1, 3L), 4).get(0);
    assertThrows(IllegalArgumentException.class, () -> spec.newNode(0, wider, source));
    assertThrows(IllegalArgumentException.class, () -> spec.newNode(NODES, SHARDS.get(0), source));
    DdaNodeState pastHorizon = new DdaNodeState(1, 61, new double[3], new double[3], new double[3], source.keyCheck(),
        DdaNode.lawOf(spec.settings().noise(3)));
    assertThrows(IllegalArgumentException.class, () -> spec.resumeNode(pastHorizon, SHARDS.get(1), source));
  }

  /** A checkpoint names its key and law: another key or another sigma is refused, a retired key resumes. */
  @Test
  void aCheckpointResumesOnlyUnderItsKeyAndLaw() throws Exception {
    DdaRunSpec spec = spec("r", 0.01, 0.4);
    KeyedNoiseSource a = new KeyedNoiseSource(TestKeys.seeded(4L));
    KeyedNoiseSource b = new KeyedNoiseSource(TestKeys.seeded(5L));
    DdaSimulation simulation = spec.simulation(SHARDS, a);
    for (int t = 0; t < 10; t++) {
      simulation.runRound();
    }
    DdaNodeState saved = DdaNodeState.fromBytes(simulation.node(1).snapshot().toBytes());
    assertEquals(a.keyCheck(), saved.key());
    StateBindingException otherKey = assertThrows(
        StateBindingException.class, () -> spec.resumeNode(saved, SHARDS.get(1), b));
    assertTrue(otherKey.getMessage().contains(a.keyCheck().hex()) && otherKey.getMessage().contains("node 1"),
        otherKey.getMessage());
    DdaNode underRetired = spec.resumeNode(saved, SHARDS.get(1),
        NoiseKeyRing.of(b, List.of(a)));
    assertArrayEquals(simulation.node(1).dual(), underRetired.dual(), 0);
    DdaRunSpec otherSigma = spec("r", 0.01, Math.nextUp(0.4));
    StateBindingException otherLaw = assertThrows(
        StateBindingException.class, () -> otherSigma.resumeNode(saved, SHARDS.get(1), a));
    assertEquals(StateBindingException.Mismatch.NOISE_LAW, otherLaw.mismatch());
    byte[] earlier = saved.toBytes();
    earlier[0] = 1;
    IllegalArgumentException unbound = assertThrows(IllegalArgumentException.class, () -> DdaNodeState.fromBytes(earlier));
    assertTrue(unbound.getMessage().contains("runId"), unbound.getMessage());
  }

  @Test
  void theFingerprintSeparatesConfigurationsThatDifferInAnyDigit() {
    String base = spec("r", 0.01, 0.4).fingerprint();
    assertEquals(32, base.length());
    assertEquals(base, spec("r", 0.01, 0.4).fingerprint());
    assertNotEquals(base, spec("r", 0.0100000001, 0.4).fingerprint());
    assertNotEquals(base, spec("r", 0.01, 0.4000000001).fingerprint());
    assertNotEquals(base, spec("s", 0.01, 0.4).fingerprint());
  }

  @Test
  void namedGraphsAndGossipModes() {
    assertEquals(GossipGraph.ring(5).adjacency(), GossipGraph.named("ring", 5, 0, 0).adjacency());
    assertEquals(GossipGraph.named("erdos-renyi", 12, 0.3, 7L).adjacency(),
        GossipGraph.named("erdos-renyi", 12, 0.3, 7L).adjacency(), "a public seed gives every node the same graph");
    assertEquals(GossipSampler.Mode.INDUCED_METROPOLIS, GossipSampler.Mode.named("metropolis"));
    assertThrows(IllegalArgumentException.class, () -> GossipGraph.named("star", 5, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> GossipSampler.Mode.named("flood"));
  }
}
