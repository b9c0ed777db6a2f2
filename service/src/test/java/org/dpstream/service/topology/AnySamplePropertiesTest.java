package org.dpstream.service.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;
import net.jqwik.api.statistics.Statistics;
import org.dpstream.schemas.DenseFeatures;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.schemas.Sample;
import org.dpstream.schemas.SparseFeatures;
import org.dpstream.service.metrics.MicrometerModelMetrics;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.service.testing.ExtremeValues;

/**
 * decode -> validate -> step through the real topology (TopologyTestDriver) for arbitrary samples:
 * doubles including +-MAX_VALUE, subnormals, -0.0, NaN and infinities (JSON strings, JSON tokens, Avro),
 * wrong lengths and huge or repeated sparse indices. For every record: nothing escapes the driver, the
 * record either takes exactly one step or yields exactly one record on dp.rejected (never a processing
 * error), every well-formed finite sample takes a step whatever its magnitude, and releases stay finite.
 */
class AnySamplePropertiesTest {

  /** How a sample is written: Avro single-object, or JSON with non-finite values quoted or as bare tokens. */
  enum Encoding { AVRO, JSON_QUOTED, JSON_TOKENS }

  /** Features as sent: dense values, or a sparse (dimension, indices, values). */
  record Features(List<Double> dense, long dimension, List<Long> indices, List<Double> values) {
    boolean isDense() {
      return dense != null;
    }
  }

  record Input(String model, Encoding encoding, Features features, double label) {}

  private Path stateDir;
  private SimpleMeterRegistry registry;
  private TopologyFixture fixture;

  @BeforeProperty
  void start() throws IOException {
    stateDir = Files.createTempDirectory("any-sample");
    registry = new SimpleMeterRegistry();
    fixture = new TopologyFixture(stateDir, new MicrometerModelMetrics(registry));
  }

  @AfterProperty
  void stop() {
    fixture.close();
    ExtremeValues.deleteRecursively(stateDir);
  }

  @Provide
  Arbitrary<Input> samples() {
    return Arbitraries.of("linear", "logistic").flatMap(model -> samplesOf(model, model.equals("linear") ? 3 : 6));
  }

  /** Mostly well-formed for the model (so that extreme finite values reach the step), sometimes not. */
  private static Arbitrary<Input> samplesOf(String model, int dimension) {
    Arbitrary<Double> value = ExtremeValues.doubles();
    Arbitrary<Long> index = Arbitraries.frequencyOf(
        Tuple.of(12, Arbitraries.longs().between(0, dimension - 1)),
        Tuple.of(1, Arbitraries.of((long) dimension, -1L, (long) Integer.MAX_VALUE, (long) Integer.MIN_VALUE,
            3_000_000_000L)));
    Arbitrary<Integer> size = Arbitraries.frequencyOf(
        Tuple.of(8, Arbitraries.just(dimension)), Tuple.of(1, Arbitraries.integers().between(0, 8)));
    Arbitrary<Features> dense = size.flatMap(n -> value.list().ofSize(n)).map(v -> new Features(v, 0, null, null));
    Arbitrary<Features> sparse = Combinators.combine(
        Arbitraries.frequencyOf(Tuple.of(8, Arbitraries.just((long) dimension)),
            Tuple.of(1, Arbitraries.of(0L, -1L, dimension - 1L, (long) Integer.MAX_VALUE, 3_000_000_000L))),
        index.list().ofMaxSize(dimension),
        value.list().ofMaxSize(dimension + 1))
        .as((n, indices, values) -> new Features(null, n, indices,
            values.size() > indices.size() ? values.subList(0, indices.size()) : values));
    Arbitrary<Double> label = model.equals("logistic")
        ? Arbitraries.frequencyOf(Tuple.of(4, Arbitraries.doubles().between(0, 1)), Tuple.of(1, value))
        : value;
    return Combinators.combine(Arbitraries.of(Encoding.class), Arbitraries.oneOf(dense, sparse), label)
        .as((encoding, features, y) -> new Input(model, encoding, features, y));
  }

  @Property(tries = 250, seed = "1212", edgeCases = EdgeCasesMode.NONE)
  void everySampleTakesOneStepOrIsRejectedOnce(@ForAll("samples") Input input) {
    byte[] bytes = encode(input);
    double stepsBefore = processed();

    fixture.samples.pipeInput(input.model().getBytes(StandardCharsets.UTF_8), bytes);

    long steps = Math.round(processed() - stepsBefore);
    List<RejectedRecord> rejected = fixture.rejected.readValuesToList();
    List<ModelRelease> releases = fixture.releases.readValuesToList();
    assertEquals(1, steps + rejected.size(), () -> "one outcome per record, got " + steps + " steps and " + rejected);
    assertEquals(isUsable(input), steps == 1,
        () -> "a well-formed finite sample takes a step, anything else is rejected: " + rejected);
    for (RejectedRecord rejection : rejected) {
      assertNotEquals(ProcessingErrorGuard.REASON, rejection.getReason(), rejection.getMessage());
      ByteBuffer original = rejection.getOriginalValue().duplicate();
      byte[] originalBytes = new byte[original.remaining()];
      original.get(originalBytes);
      assertArrayEquals(bytes, originalBytes);
    }
    for (ModelRelease release : releases) {
      assertTrue(release.getParameters().stream().allMatch(Double::isFinite), "finite release " + release);
    }
    assertTrue(registry.find("dpstream.processing.errors").counters().isEmpty());
    Statistics.collect(steps == 1 ? "stepped" : rejected.get(0).getReason());
  }

  /** Steps taken on this instance: one record goes in at a time, so its step is the difference. */
  private double processed() {
    return registry.get("dpstream.samples.processed").counter().count();
  }

  /** The oracle: what the topology must step (everything else it must reject). */
  private static boolean isUsable(Input input) {
    int dimension = input.model().equals("linear") ? 3 : 6;
    if (!Double.isFinite(input.label())) {
      return false;
    }
    if (input.model().equals("logistic") && !(input.label() >= 0 && input.label() <= 1)) {
      return false;
    }
    Features f = input.features();
    if (f.isDense()) {
      return f.dense().size() == dimension && ExtremeValues.allFinite(f.dense());
    }
    if (input.encoding() == Encoding.AVRO ? (int) f.dimension() != dimension : f.dimension() != dimension) {
      return false;
    }
    if (f.indices().size() != f.values().size() || !ExtremeValues.allFinite(f.values())) {
      return false;
    }
    HashSet<Long> seen = new HashSet<>();
    for (long raw : f.indices()) {
      long index = input.encoding() == Encoding.AVRO ? (int) raw : raw;
      if (index < 0 || index >= dimension || !seen.add(index)) {
        return false;
      }
    }
    return true;
  }

  private static byte[] encode(Input input) {
    Features f = input.features();
    if (input.encoding() == Encoding.AVRO) {
      Object features = f.isDense()
          ? new DenseFeatures(f.dense())
          : new SparseFeatures((int) f.dimension(), f.indices().stream().map(Long::intValue).toList(), f.values());
      return DpSerdes.sample().encode(Sample.newBuilder().setFeatures(features).setLabel(input.label()).build());
    }
    boolean quoted = input.encoding() == Encoding.JSON_QUOTED;
    String features = f.isDense()
        ? ExtremeValues.jsonArray(f.dense(), quoted)
        : String.format(Locale.ROOT, "{\"dimension\": %d, \"indices\": %s, \"values\": %s}", f.dimension(),
            ExtremeValues.jsonInts(f.indices()), ExtremeValues.jsonArray(f.values(), quoted));
    return String.format(Locale.ROOT, "{\"features\": %s, \"label\": %s}", features,
        ExtremeValues.json(input.label(), quoted)).getBytes(StandardCharsets.UTF_8);
  }
}
