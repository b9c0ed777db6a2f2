package org.dpstream.core.erm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.testing.TestKeys;

/**
 * {@link ContributionBounding}: for any records and any k, each person keeps min(k, their records) of them, the kept
 * records do not depend on the order of the file nor on any other person's records.
 */
class ContributionBoundingPropertiesTest {

  private static final KeyedNoiseSource KEY = new KeyedNoiseSource(TestKeys.seeded(51));

  /** One record: its person and its content (one feature and a label, few values so that duplicates occur). */
  record Row(String person, double feature, double label) {}

  @Provide
  Arbitrary<List<Row>> rows() {
    Arbitrary<Row> row = net.jqwik.api.Combinators.combine(
        Arbitraries.of("ann", "bo", "cy", "dee", "\u00e9", ""),
        Arbitraries.integers().between(-3, 3).map(Integer::doubleValue),
        Arbitraries.of(0.0, 1.0)).as(Row::new);
    return row.list().ofMaxSize(60);
  }

  private static List<Row> kept(List<Row> rows, int k, KeyedNoiseSource key) {
    String[] persons = rows.stream().map(Row::person).toArray(String[]::new);
    double[][] features = rows.stream().map(r -> new double[] {r.feature()}).toArray(double[][]::new);
    double[] labels = rows.stream().mapToDouble(Row::label).toArray();
    ContributionBounding.Kept kept = ContributionBounding.keep(persons, features, labels, k, key);
    List<Row> out = new ArrayList<>();
    for (int i : kept.kept()) {
      out.add(rows.get(i));
    }
    assertEquals(rows.size() - out.size(), kept.dropped());
    assertEquals(rows.stream().map(Row::person).distinct().count(), kept.persons());
    return out;
  }

  private static Map<Row, Integer> multiset(List<Row> rows) {
    Map<Row, Integer> counts = new HashMap<>();
    rows.forEach(r -> counts.merge(r, 1, Integer::sum));
    return counts;
  }

  private static Map<String, Integer> perPerson(List<Row> rows) {
    Map<String, Integer> counts = new HashMap<>();
    rows.forEach(r -> counts.merge(r.person(), 1, Integer::sum));
    return counts;
  }

  @Property(tries = 500, seed = "5151")
  void eachPersonKeepsTheSmallerOfKAndTheirRecords(@ForAll("rows") List<Row> rows,
      @ForAll @IntRange(min = 1, max = 6) int k) {
    Map<String, Integer> before = perPerson(rows);
    Map<String, Integer> after = perPerson(kept(rows, k, KEY));
    before.forEach((person, count) -> assertEquals(Math.min(k, count), after.getOrDefault(person, 0), person));
    Map<Row, Integer> all = multiset(rows);
    multiset(kept(rows, k, KEY)).forEach((row, count) -> assertTrue(count <= all.get(row), "kept what was not there"));
  }

  @Property(tries = 500, seed = "5252")
  void theKeptRecordsDoNotDependOnTheOrder(@ForAll("rows") List<Row> rows, @ForAll @IntRange(min = 1, max = 4) int k,
      @ForAll long shuffleSeed) {
    List<Row> shuffled = new ArrayList<>(rows);
    Collections.shuffle(shuffled, new Random(shuffleSeed));
    assertEquals(multiset(kept(rows, k, KEY)), multiset(kept(shuffled, k, KEY)));
  }

  @Property(tries = 300, seed = "5353")
  void aPersonsKeptRecordsDoNotDependOnOtherPersons(@ForAll("rows") List<Row> rows, @ForAll("rows") List<Row> others,
      @ForAll @IntRange(min = 1, max = 4) int k) {
    // The persons of "rows" renamed apart from those of "others": adding others' records changes nothing of theirs.
    List<Row> mine = rows.stream().map(r -> new Row("me-" + r.person(), r.feature(), r.label())).toList();
    List<Row> together = new ArrayList<>(mine);
    together.addAll(others);
    List<Row> keptTogether = kept(together, k, KEY).stream().filter(r -> r.person().startsWith("me-")).toList();
    assertEquals(multiset(kept(mine, k, KEY)), multiset(keptTogether));
  }

  @Property(tries = 50, seed = "5454")
  void aRecordWithoutAPersonIsRefused(@ForAll @IntRange(min = 1, max = 3) int k) {
    assertThrows(IllegalArgumentException.class, () -> ContributionBounding.keep(new String[] {"a", null},
        new double[][] {{1}, {2}}, new double[] {0, 1}, k, KEY));
  }
}
