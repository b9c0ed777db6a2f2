package org.dpstream.service.release;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.dpstream.schemas.BanditStepRelease;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.PrivacyLedger;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.service.serde.OutputFormat;

/**
 * For any bandit id, any number of arms and dimension, any parameter values (NaN, infinities and -0.0 included),
 * any extras and any ledger: a step's per-arm releases folded into one {@link BanditStepRelease}, written and read
 * back (Avro or JSON), unfold into the same bytes; and a reader of what was published sees the same newest release
 * per arm whether the bandit published per arm (the old stream) or per step.
 */
class BanditStepReleasesPropertiesTest {

  /** One step of a bandit as its per-arm records: arms 0 to K - 1, then the extras. */
  record Step(String banditId, int arms, List<ModelRelease> releases) {}

  @Provide
  Arbitrary<Step> steps() {
    Arbitrary<String> ids = Arbitraries.strings().ofMinLength(1).ofMaxLength(12)
        .withChars("ab/-_.0123456789é");
    Arbitrary<Double> values = Arbitraries.oneOf(Arbitraries.doubles(),
        Arbitraries.of(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0, Double.MIN_VALUE));
    Arbitrary<PrivacyLedger> ledgers = Combinators.combine(Arbitraries.doubles().between(0, 10),
        Arbitraries.integers().between(0, 3).injectNull(0.5), Arbitraries.of("user", "event").injectNull(0.5))
        .as((spent, generation, unit) -> new PrivacyLedger(1.0, 1e-5, "paper-thm-3.4+joint-dp-2-arms", 200L, 0L,
            spent, 0.0, generation, generation == null ? null : 0.5, generation == null ? null : 1e-6, unit,
            unit == null ? null : 3));
    return Combinators.combine(ids, Arbitraries.integers().between(1, 6), Arbitraries.integers().between(1, 5),
        Arbitraries.longs().between(1, 1_000_000), ledgers, Arbitraries.integers().between(0, 2),
        values.list().ofSize(6 * 5 * 3))
        .as((id, arms, d, step, ledger, extraCount, pool) -> {
          List<ModelRelease> releases = new ArrayList<>();
          int next = 0;
          for (int arm = 0; arm < arms + extraCount; arm++) {
            int length = arm < arms ? d : arms * d;
            List<Double> parameters = new ArrayList<>();
            for (int j = 0; j < length; j++) {
              parameters.add(pool.get(next++ % pool.size()));
            }
            String modelId = arm < arms ? BanditStepReleases.armModelId(id, arm) : id + "/extra-" + (arm - arms);
            releases.add(new ModelRelease(modelId, step, 0L, parameters, "dp-hdb/dp-pofw", 1.0,
                PrivacyLedger.newBuilder(ledger).build()));
          }
          return new Step(id, arms, releases);
        });
  }

  private static List<byte[]> encoded(List<ModelRelease> releases) {
    return releases.stream().map(DpSerdes.modelRelease()::encode).toList();
  }

  @Property(tries = 300, seed = "35")
  void aFoldedStepUnfoldsIntoThePerArmRecordsBitForBit(@ForAll("steps") Step step) {
    BanditStepRelease folded = BanditStepReleases.of(step.banditId(), step.arms(), step.releases());
    for (OutputFormat format : OutputFormat.values()) {
      var serde = DpSerdes.banditStepRelease().writing(format);
      BanditStepRelease read = serde.deserialize("dp.releases", serde.serialize("dp.releases", folded));
      List<byte[]> expected = encoded(step.releases());
      List<byte[]> actual = encoded(BanditStepReleases.armReleases(read));
      assertEquals(expected.size(), actual.size());
      for (int i = 0; i < expected.size(); i++) {
        assertArrayEquals(expected.get(i), actual.get(i), format + ", release " + i);
      }
    }
  }

  @Property(tries = 100, seed = "35")
  void aReleaseThatIsNotOfTheSameStepIsRefused(@ForAll("steps") Step step, @ForAll @IntRange(min = 0, max = 5) int at) {
    List<ModelRelease> releases = new ArrayList<>(step.releases());
    int i = at % releases.size();
    ModelRelease other = releases.get(i);
    releases.set(i, new ModelRelease(other.getModelId(), other.getStep() + 1, other.getEpoch(), other.getParameters(),
        other.getAlgorithm(), other.getP(), other.getLedger()));
    if (releases.size() > 1) {
      assertThrows(IllegalArgumentException.class, () -> BanditStepReleases.of(step.banditId(), step.arms(), releases));
    }
    List<ModelRelease> misnamed = new ArrayList<>(step.releases());
    ModelRelease first = misnamed.get(0);
    misnamed.set(0, new ModelRelease(step.banditId() + "/arm-9", first.getStep(), first.getEpoch(),
        first.getParameters(), first.getAlgorithm(), first.getP(), first.getLedger()));
    assertThrows(IllegalArgumentException.class, () -> BanditStepReleases.of(step.banditId(), step.arms(), misnamed));
  }

  /** The start-up scan reads the old per-arm stream and the step stream of the same releases alike. */
  @Property(tries = 100, seed = "35")
  void whatWasPublishedReadsAlikeFromPerArmAndStepRecords(@ForAll("steps") Step step) {
    PublishedReleases perArm = PublishedReleases.empty();
    for (ModelRelease release : step.releases()) {
      perArm.add(release.getModelId(), DpSerdes.modelRelease().encode(release));
    }
    PublishedReleases perStep = PublishedReleases.empty();
    perStep.add(step.banditId(), DpSerdes.banditStepRelease().encode(
        BanditStepReleases.of(step.banditId(), step.arms(), step.releases())));
    for (ModelRelease release : step.releases()) {
      String key = release.getModelId();
      assertEquals(perArm.newestGeneration(key), perStep.newestGeneration(key), key);
      int generation = perArm.newestGeneration(key).orElseThrow();
      assertEquals(perArm.newestStep(key, generation), perStep.newestStep(key, generation), key);
      assertEquals(perArm.generation(key, generation + 1), perStep.generation(key, generation + 1), key);
    }
  }
}
