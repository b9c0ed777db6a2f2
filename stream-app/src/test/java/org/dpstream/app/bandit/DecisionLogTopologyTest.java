package org.dpstream.app.bandit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.dpstream.app.config.BanditRegistry;
import org.dpstream.app.kafka.Topics;
import org.dpstream.app.metrics.BanditMetrics;
import org.dpstream.app.serde.DpSerdes;
import org.dpstream.bandit.Decision;
import org.dpstream.bandit.hdb.DpHdbPolicy;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.schemas.DecidedRequest;
import org.dpstream.schemas.DecisionPhase;
import org.dpstream.schemas.DecisionResponse;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.schemas.Reward;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The topology with deciders ({@link BanditTopology.Deciding#BY_DECIDERS}): it reads the decision log instead
 * of dp.contexts, decides nothing itself, and learns each logged decision's arm exactly as if it had made it.
 */
class DecisionLogTopologyTest {

  @TempDir Path stateDir;

  private static final String BANDIT = "drop-bandit";

  @Test
  void loggedDecisionsAreLearntAsTheTopologysOwnAndNothingIsDecidedAgain() {
    BanditRegistry registry = BanditTopologyTest.CONFIG.banditRegistry();
    BanditRegistry.Entry entry = registry.find(BANDIT).orElseThrow();
    Topics topics = Topics.defaults();
    StreamsBuilder builder = new StreamsBuilder();
    KeyedNoiseSource noise = new KeyedNoiseSource(BanditTopologyTest.key());
    BanditTopology.addTo(builder, registry, topics, BanditTopologyTest.CONFIG.routingPartitions(), noise,
        BanditMetrics.NONE, BanditTopology.Deciding.BY_DECIDERS);
    Properties properties = new Properties();
    properties.put(StreamsConfig.APPLICATION_ID_CONFIG, "decision-log-test");
    properties.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
    properties.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    properties.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), properties)) {
      TestInputTopic<byte[], byte[]> decided =
          driver.createInputTopic(topics.decided().name(), new ByteArraySerializer(), new ByteArraySerializer());
      TestInputTopic<byte[], byte[]> rewards =
          driver.createInputTopic(topics.rewards().name(), new ByteArraySerializer(), new ByteArraySerializer());
      TestOutputTopic<String, DecisionResponse> decisions = driver.createOutputTopic(topics.decisions().name(),
          Serdes.String().deserializer(), topics.decisions().valueSerde().deserializer());
      TestOutputTopic<String, ModelRelease> releases = driver.createOutputTopic(topics.releases().name(),
          Serdes.String().deserializer(), topics.releases().valueSerde().deserializer());
      TestOutputTopic<String, RejectedRecord> rejected = driver.createOutputTopic(topics.rejected().name(),
          Serdes.String().deserializer(), topics.rejected().valueSerde().deserializer());

      // The reference: the same bandit's policy, learning the arm each logged decision names.
      DpHdbPolicy reference = DpHdbPolicy.start(entry.hdb(), BanditTopologyTest.noiseOf(BANDIT));
      long t = 1_000;
      for (int i = 0; i < 30; i++) {
        double[] x = BanditTopologyTest.context(i);
        int arm = i % entry.spec().arms(); // any arm a decider chose, not necessarily the policy's
        decided.pipeInput(record(decision("r" + i, arm, reference.rounds(), x), t++));
        rewards.pipeInput(record(reward("r" + i, 0.3 * arm), t++));
        reference.update(new Decision(arm, Decision.Phase.WARM_UP, reference.rounds()), x, 0.3 * arm);
      }
      assertTrue(decisions.isEmpty(), "the deciders wrote the decisions; the topology writes none");
      List<ModelRelease> released = releases.readValuesToList();
      ModelRelease last = released.get(released.size() - 1);
      assertEquals(30, last.getStep());
      List<ModelRelease> expected = BanditReleases.ofRound(reference, 1);
      assertEquals(expected.get(expected.size() - 1), last);
      assertArrayEquals(reference.armParameters(0), BanditTopologyTest.parameters(
          released.stream().filter(r -> r.getModelId().equals(BANDIT + "/arm-0")).reduce((a, b) -> b).orElseThrow()));
      assertTrue(rejected.isEmpty());

      // A decision naming no arm of the bandit, or a step not reached, is rejected; a request id twice too.
      double[] x = BanditTopologyTest.context(99);
      decided.pipeInput(record(decision("bad-arm", 7, 3, x), t++));
      decided.pipeInput(record(decision("future", 0, 31, x), t++));
      decided.pipeInput(record(decision("r3", 0, 3, x), t++));
      decided.pipeInput(new TestRecord<>(BANDIT.getBytes(StandardCharsets.UTF_8), new byte[] {1, 2, 3}, null, t++));
      assertEquals(List.of("INVALID_DECISION", "INVALID_DECISION", "DUPLICATE_REQUEST", "UNDECODABLE"),
          rejected.readValuesToList().stream().map(RejectedRecord::getReason).toList());
    }
  }

  private static byte[] decision(String requestId, int arm, long step, double[] x) {
    List<Double> values = java.util.Arrays.stream(x).boxed().toList();
    return DpSerdes.decidedRequest().encode(DecidedRequest.newBuilder()
        .setDecision(DecisionResponse.newBuilder().setRequestId(requestId).setArm(arm).setModelStep(step)
            .setPhase(DecisionPhase.WARM_UP).build())
        .setContext(values).build());
  }

  private static byte[] reward(String requestId, double r) {
    return DpSerdes.reward().encode(Reward.newBuilder().setRequestId(requestId).setReward(r).build());
  }

  private static TestRecord<byte[], byte[]> record(byte[] value, long timestamp) {
    return new TestRecord<>(BANDIT.getBytes(StandardCharsets.UTF_8), value, null, timestamp);
  }
}
