package org.dpstream.service.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;
import org.dpstream.core.online.EstimatorFactory;
import org.dpstream.schemas.DenseFeatures;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.schemas.Sample;
import org.dpstream.service.config.ModelConfig;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.metrics.ModelMetrics;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.service.testing.ExtremeValues;

/**
 * For any sequence of samples and any person ids (unicode, NUL, look-alikes, blank), a model of
 * {@code maxContributions: 3} learns exactly each person's first three samples, one step each, rejects every later one
 * with CONTRIBUTION_LIMIT and every sample without an id with MISSING_USER_ID, and its releases stay consecutive.
 */
class PersonBoundPropertiesTest {

  private static final int K = 3;
  private static final ModelConfig PER_USER = new ModelConfig("per-user", 2, "squared", "2", 1, 1, 1e-5, 1 << 20, 1, 1,
      null, null, "zcdp", 1, null, null, null, null, null, Map.of("by", "user", "maxContributions", K));
  private static final ServiceConfig CONFIG =
      new ServiceConfig("dpstream-test", null, List.of(PER_USER), Map.of(), 0).withRoutingPartitions(1);

  private Path stateDir;
  private TopologyFixture fixture;
  private long lastStep;
  private int tryNumber;

  @BeforeProperty
  void start() throws IOException {
    stateDir = Files.createTempDirectory("person-bound");
    fixture = new TopologyFixture(stateDir, ModelMetrics.NONE, 1, EstimatorFactory.PRIVATE, CONFIG);
  }

  @AfterProperty
  void stop() {
    fixture.close();
    ExtremeValues.deleteRecursively(stateDir);
  }

  /** A person as sent: null or blank (no id), or an id (made fresh for each try by a prefix). */
  @Provide
  Arbitrary<List<String>> persons() {
    Arbitrary<String> ids = Arbitraries.strings().withChars('a', 'A', '\u0000', '\u00e9', 'e', '\u0301', ' ', '\u4e2d')
        .ofMinLength(1).ofMaxLength(3).filter(id -> !id.isBlank());
    Arbitrary<String> blank = Arbitraries.of("", " ", "\t");
    return ids.list().ofMinSize(1).ofMaxSize(4).flatMap(pool -> Arbitraries.frequencyOf(
        Tuple.of(10, Arbitraries.of(pool)), Tuple.of(1, blank), Tuple.of(1, Arbitraries.just((String) null)))
        .list().ofMaxSize(30));
  }

  @Property(tries = 60, seed = "3131")
  void eachPersonsFirstKSamplesAreLearntAndNothingElse(@ForAll("persons") List<String> persons) {
    String fresh = "try" + (tryNumber++) + "/";
    Map<String, Integer> counts = new HashMap<>();
    for (String person : persons) {
      String id = person == null || person.isBlank() ? person : fresh + person;
      Sample sample = Sample.newBuilder().setFeatures(new DenseFeatures(List.of(0.5, -0.25))).setLabel(0.3)
          .setUserId(id).build();
      fixture.samples.pipeInput("per-user".getBytes(StandardCharsets.UTF_8), DpSerdes.sample().encode(sample));
      List<ModelRelease> released = fixture.releases.readValuesToList();
      List<RejectedRecord> rejected = fixture.rejected.readValuesToList();
      assertEquals(1, released.size() + rejected.size(), "one outcome per sample");
      if (id == null || id.isBlank()) {
        assertEquals(SampleRejection.MISSING_USER_ID.name(), rejected.get(0).getReason());
      } else if (counts.merge(id, 1, Integer::sum) <= K) {
        assertEquals(++lastStep, released.get(0).getStep(), "consecutive steps");
      } else {
        assertEquals(SampleRejection.CONTRIBUTION_LIMIT.name(), rejected.get(0).getReason());
      }
    }
  }
}
