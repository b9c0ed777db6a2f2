package org.dpstream.service.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.dpstream.core.online.OnlineEstimator;
import org.dpstream.core.online.OnlineEstimators;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.schemas.DenseFeatures;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.schemas.Sample;
import org.dpstream.service.metrics.MicrometerModelMetrics;
import org.dpstream.service.metrics.ModelMetrics;
import org.dpstream.service.routing.PlacedState;
import org.dpstream.service.routing.Placement;
import org.dpstream.service.serde.DpSerdes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContinualReleaseTopologyTest {

  @TempDir Path stateDir;

  private static byte[] key(String model) {
    return model.getBytes(StandardCharsets.UTF_8);
  }

  private static double[][] stream(int n) {
    double[][] rows = new double[n][4]; // three features and a label
    for (int t = 0; t < n; t++) {
      double a = Math.sin(0.7 * t);
      double b = Math.cos(1.3 * t);
      double c = Math.sin(0.2 * t + 1);
      double norm = Math.cbrt(Math.abs(a * a * a) + Math.abs(b * b * b) + Math.abs(c * c * c)); // unit l3 (q of p = 1.5)
      rows[t] = new double[] {a / norm, b / norm, c / norm, 0.5 * a / norm - 0.25 * c / norm};
    }
    return rows;
  }

  private static String json(double[] row) {
    return String.format(Locale.ROOT, "{\"features\": [%s, %s, %s], \"label\": %s}",
        Double.toString(row[0]), Double.toString(row[1]), Double.toString(row[2]), Double.toString(row[3]));
  }

  private static byte[] avro(double[] row) {
    Sample sample = Sample.newBuilder()
        .setFeatures(new DenseFeatures(List.of(row[0], row[1], row[2])))
        .setLabel(row[3])
        .build();
    return DpSerdes.sample().encode(sample);
  }

  private static double[] parameters(ModelRelease release) {
    return release.getParameters().stream().mapToDouble(Double::doubleValue).toArray();
  }

  /** The topology is a transport around core: its releases are the estimator's, bit for bit. */
  @Test
  void releasesEqualTheEstimatorRunDirectlyInCore() {
    double[][] rows = stream(150); // past the horizon of 64: three epochs
    OnlineEstimator direct = OnlineEstimators.start(
        TopologyFixture.LINEAR.toSpec(), TopologyFixture.noiseOf(TopologyFixture.LINEAR.id()));
    try (TopologyFixture fixture = new TopologyFixture(stateDir, ModelMetrics.NONE)) {
      for (double[] row : rows) {
        fixture.samples.pipeInput(key("linear"), avro(row));
      }
      List<ModelRelease> released = fixture.releases.readValuesToList();
      assertEquals(rows.length, released.size());
      for (int t = 0; t < rows.length; t++) {
        direct.step(new double[] {rows[t][0], rows[t][1], rows[t][2]}, rows[t][3]);
        ModelRelease release = released.get(t);
        assertEquals(t + 1, release.getStep());
        assertArrayEquals(direct.parameters(), parameters(release), "step " + (t + 1));
        assertEquals(direct.mechanism(), release.getAlgorithm());
        assertEquals(direct.ledger().spentEpsilon(), release.getLedger().getEpsilonSpent());
      }
      assertEquals(2, released.get(rows.length - 1).getEpoch());
      assertTrue(fixture.rejected.isEmpty());
    }
  }

  @Test
  void jsonAndAvroInputsGiveTheSameReleases() {
    double[][] rows = stream(20);
    List<double[]> fromAvro = new ArrayList<>();
    try (TopologyFixture fixture = new TopologyFixture(stateDir.resolve("avro"), ModelMetrics.NONE)) {
      for (double[] row : rows) {
        fixture.samples.pipeInput(key("linear"), avro(row));
      }
      fixture.releases.readValuesToList().forEach(r -> fromAvro.add(parameters(r)));
    }
    try (TopologyFixture fixture = new TopologyFixture(stateDir.resolve("json"), ModelMetrics.NONE)) {
      for (double[] row : rows) {
        fixture.samples.pipeInput(key("linear"), json(row).getBytes(StandardCharsets.UTF_8));
      }
      List<ModelRelease> fromJson = fixture.releases.readValuesToList();
      assertEquals(fromAvro.size(), fromJson.size());
      for (int t = 0; t < rows.length; t++) {
        assertArrayEquals(fromAvro.get(t), parameters(fromJson.get(t)));
      }
    }
  }

  /** Each reason lands in dp.rejected with the original bytes, and the service keeps going. */
  @Test
  void everyRejectReasonIsReportedWithTheOriginalBytes() {
    Object[][] cases = {
      {null, "{\"features\": [1, 0, 0], \"label\": 0}", "MISSING_KEY"},
      {"nope", "{\"features\": [1, 0, 0], \"label\": 0}", "UNKNOWN_MODEL"},
      {"linear", "\u0000\u0001garbage", "UNDECODABLE"},
      {"linear", "{\"features\": [1, 0, 0]}", "MISSING_FIELD"},
      {"linear", "{\"features\": [1, 0, 0], \"label\": \"one\"}", "WRONG_TYPE"},
      {"linear", "{\"features\": [1, NaN, 0], \"label\": 0}", "NON_FINITE_NUMBER"},
      {"linear", "{\"features\": [1, 0], \"label\": 0}", "WRONG_DIMENSION"},
      {"logistic", "{\"features\": {\"dimension\": 6, \"indices\": [1, 9], \"values\": [1, 1]}, \"label\": 1}",
          "INVALID_SPARSE_FEATURES"},
      {"logistic", "{\"features\": {\"dimension\": 6, \"indices\": [1], \"values\": [1]}, \"label\": 3}",
          "INVALID_LABEL"},
    };
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (TopologyFixture fixture = new TopologyFixture(stateDir, new MicrometerModelMetrics(registry))) {
      for (Object[] c : cases) {
        byte[] value = ((String) c[1]).getBytes(StandardCharsets.UTF_8);
        fixture.samples.pipeInput(c[0] == null ? null : key((String) c[0]), value);
        RejectedRecord rejected = fixture.rejected.readValue();
        assertEquals(c[2], rejected.getReason(), "input " + c[1] + ": " + rejected.getMessage());
        assertArrayEquals(value, bytes(rejected.getOriginalValue()));
        assertEquals("dp.samples", rejected.getSourceTopic());
        assertTrue(!rejected.getMessage().isBlank());
      }
      // A valid sample after all that is still learned.
      fixture.samples.pipeInput(key("linear"), "{\"features\": [0.5, 0.5, 0], \"label\": 0.1}".getBytes(StandardCharsets.UTF_8));
      assertEquals(1, fixture.releases.readValuesToList().size());
      double byReason = registry.find("dpstream.samples.rejected.by.reason").counters().stream()
          .mapToDouble(c -> c.count()).sum();
      assertEquals(cases.length, byReason);
      assertEquals(cases.length, registry.get("dpstream.samples.rejected").counter().count());
      assertEquals(1, registry.get("dpstream.samples.processed").counter().count());
    }
  }

  @Test
  void releasesEveryKthStepAndCountsTheRest() {
    try (TopologyFixture fixture = new TopologyFixture(stateDir, ModelMetrics.NONE)) {
      for (int t = 0; t < 9; t++) {
        fixture.samples.pipeInput(key("logistic"),
            ("{\"features\": {\"dimension\": 6, \"indices\": [" + (t % 6) + "], \"values\": [0.5]}, \"label\": "
                + (t % 2) + "}").getBytes(StandardCharsets.UTF_8));
      }
      List<ModelRelease> released = fixture.releases.readValuesToList();
      assertEquals(List.of(2L, 4L, 6L, 8L), released.stream().map(ModelRelease::getStep).toList());
      assertTrue(released.get(0).getAlgorithm().startsWith("dp-pofw"), released.get(0).getAlgorithm());
    }
  }

  /**
   * A task that starts on another instance finds the model's state in its store (restored from the
   * changelog) and continues bit for bit. TopologyTestDriver wipes its state directory on close, so
   * the store's entries are copied into a fresh driver's store, which is what a changelog restore does.
   */
  @Test
  void aTaskResumedFromItsStoreContinuesTheStreamBitForBit() {
    double[][] rows = stream(40);
    List<double[]> uninterrupted = new ArrayList<>();
    try (TopologyFixture fixture = new TopologyFixture(stateDir.resolve("straight"), ModelMetrics.NONE)) {
      for (double[] row : rows) {
        fixture.samples.pipeInput(key("linear"), avro(row));
      }
      fixture.releases.readValuesToList().forEach(r -> uninterrupted.add(parameters(r)));
    }
    List<KeyValue<String, byte[]>> state = new ArrayList<>();
    try (TopologyFixture first = new TopologyFixture(stateDir.resolve("first"), ModelMetrics.NONE)) {
      for (int t = 0; t < 25; t++) {
        first.samples.pipeInput(key("linear"), avro(rows[t]));
      }
      assertEquals(25, first.releases.readValuesToList().size());
      KeyValueStore<String, byte[]> store = first.driver.getKeyValueStore(ContinualReleaseTopology.MODEL_STATE_STORE);
      try (KeyValueIterator<String, byte[]> all = store.all()) {
        all.forEachRemaining(state::add);
      }
    }
    assertEquals(1, state.size());
    try (TopologyFixture second = new TopologyFixture(stateDir.resolve("second"), ModelMetrics.NONE)) {
      KeyValueStore<String, byte[]> store = second.driver.getKeyValueStore(ContinualReleaseTopology.MODEL_STATE_STORE);
      state.forEach(entry -> store.put(entry.key, entry.value));
      for (int t = 25; t < rows.length; t++) {
        second.samples.pipeInput(key("linear"), avro(rows[t]));
      }
      List<ModelRelease> released = second.releases.readValuesToList();
      assertEquals(rows.length - 25, released.size());
      for (int i = 0; i < released.size(); i++) {
        assertEquals(26 + i, released.get(i).getStep());
        assertArrayEquals(uninterrupted.get(25 + i), parameters(released.get(i)));
      }
    }
  }

  /**
   * A sample that reaches a routing partition other than its model's home (here: the driver delivers
   * everything to partition 0) is rejected and starts no state; a model at home is stepped as usual.
   */
  @Test
  void aSampleOutsideItsModelsHomePartitionIsRejectedAndStartsNoState() {
    int partitions = 2;
    while (Placement.of("linear", partitions).partition() == 0 || Placement.of("logistic", partitions).partition() != 0) {
      partitions++;
    }
    double[] row = stream(1)[0];
    try (TopologyFixture fixture = new TopologyFixture(stateDir, ModelMetrics.NONE, partitions)) {
      fixture.samples.pipeInput(key("linear"), avro(row));
      fixture.samples.pipeInput(key("logistic"), "{\"features\": [0.1, 0, 0, 0, 0, 0], \"label\": 1}".getBytes(StandardCharsets.UTF_8));
      fixture.samples.pipeInput(key("logistic"), "{\"features\": [0.2, 0, 0, 0, 0, 0], \"label\": 1}".getBytes(StandardCharsets.UTF_8));
      List<RejectedRecord> rejected = fixture.rejected.readValuesToList();
      assertEquals(1, rejected.size(), rejected.toString());
      assertEquals(SampleRejection.MISPLACED_SAMPLE.name(), rejected.get(0).getReason());
      assertArrayEquals(avro(row), bytes(rejected.get(0).getOriginalValue()));
      assertEquals("dp.samples", rejected.get(0).getSourceTopic(), "the source is the input, not the routing topic");
      // logistic releases every second step
      assertEquals(List.of("logistic"), fixture.releases.readKeyValuesToList().stream().map(kv -> kv.key).toList());
      KeyValueStore<String, byte[]> store = fixture.driver.getKeyValueStore(ContinualReleaseTopology.MODEL_STATE_STORE);
      assertEquals(null, store.get("linear"), "no state was started for the misplaced model");
    }
  }

  /** A stored state created elsewhere, or written before routing, is neither resumed nor replaced. */
  @Test
  void aStoredStateFromAnotherPlacementIsNeitherResumedNorReplaced() {
    double[][] rows = stream(3);
    byte[] state;
    try (TopologyFixture first = new TopologyFixture(stateDir.resolve("first"), ModelMetrics.NONE)) {
      first.samples.pipeInput(key("linear"), avro(rows[0]));
      state = PlacedState.open("linear", new Placement(0, 1),
          first.driver.<String, byte[]>getKeyValueStore(ContinualReleaseTopology.MODEL_STATE_STORE).get("linear"));
    }
    byte[][] foreign = {PlacedState.stamp(new Placement(1, 2), state), state};
    for (int i = 0; i < foreign.length; i++) {
      try (TopologyFixture second = new TopologyFixture(stateDir.resolve("second-" + i), ModelMetrics.NONE)) {
        KeyValueStore<String, byte[]> store = second.driver.getKeyValueStore(ContinualReleaseTopology.MODEL_STATE_STORE);
        store.put("linear", foreign[i]);
        second.samples.pipeInput(key("linear"), avro(rows[1]));
        second.samples.pipeInput(key("linear"), avro(rows[2]));
        List<String> reasons = second.rejected.readValuesToList().stream().map(RejectedRecord::getReason).toList();
        assertEquals(List.of(SampleRejection.MISPLACED_STATE.name(), SampleRejection.MISPLACED_STATE.name()), reasons);
        assertTrue(second.releases.isEmpty());
        assertArrayEquals(foreign[i], store.get("linear"), "the foreign state is left as it was");
      }
    }
  }

  /** The metrics mark a model budget-exhausted by this reason's name: renaming it must not go unnoticed. */
  @Test
  void theMetricsKnowTheBudgetRejectionByItsName() {
    assertEquals(SampleRejection.BUDGET_EXHAUSTED.name(), MicrometerModelMetrics.BUDGET_EXHAUSTED);
  }

  /**
   * One state per model, so the per-model gauges are that state's: the step and eps-spent gauges equal the
   * last release's step and ledger (eps rounded up to the micro-epsilon), model by model.
   */
  @Test
  void perModelGaugesAreTheLastReleasesStepAndLedger() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    double[][] rows = stream(37);
    try (TopologyFixture fixture = new TopologyFixture(stateDir, new MicrometerModelMetrics(registry))) {
      for (double[] row : rows) {
        fixture.samples.pipeInput(key("linear"), avro(row));
      }
      for (int t = 0; t < 8; t++) {
        fixture.samples.pipeInput(key("logistic"),
            ("{\"features\": [0." + t + ", 0, 0, 0, 0, 0], \"label\": 1}").getBytes(StandardCharsets.UTF_8));
      }
      List<ModelRelease> releases = fixture.releases.readValuesToList();
      for (String model : List.of("linear", "logistic")) {
        ModelRelease last = releases.stream().filter(r -> r.getModelId().equals(model)).reduce((a, b) -> b).orElseThrow();
        assertEquals((double) last.getStep(), registry.get("dpstream.model.step").tag("model", model).gauge().value());
        assertEquals(Math.ceil(last.getLedger().getEpsilonSpent() * 1e6) / 1e6,
            registry.get("dpstream.epsilon.spent").tag("model", model).gauge().value(), 1e-12);
        assertEquals(last.getLedger().getEpsilon(),
            registry.get("dpstream.epsilon.budget").tag("model", model).gauge().value(), 1e-12);
      }
      assertEquals(37.0, registry.get("dpstream.model.step").tag("model", "linear").gauge().value());
      assertEquals(8.0, registry.get("dpstream.model.step").tag("model", "logistic").gauge().value());
    }
  }

  private static byte[] bytes(ByteBuffer buffer) {
    byte[] out = new byte[buffer.remaining()];
    buffer.duplicate().get(out);
    return out;
  }
}
