package org.dpstream.core.erm;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.dpstream.core.privacy.random.KeyedNoiseSource;

/**
 * Keeps at most k records per person before batch training, by a public rule that looks at nothing but the person's
 * own records and the key: each record gets the priority HMAC(key, person, record content) (the record's features
 * and label, not its position), and each person keeps the k records of smallest priority. So the records kept of
 * one person do not depend on any other person's records nor on the order of the file, and two data sets that
 * differ in one person's records keep sets that differ in at most k records of that person: the neighbouring
 * relation the algorithms account for ({@link ErmProblem#maxContributions}). Records of one person with equal
 * content are interchangeable; among them the earlier is kept, which keeps the same multiset of records.
 *
 * <p>The priority is {@link KeyedNoiseSource#personPseudonym} under a unit of its own ({@value #UNIT_PREFIX} and
 * the person), so it is unrelated to the service's pseudonyms; the ids stay in memory and reach no output. The
 * rule needs no secrecy for the guarantee (it is a function of one person's records); the key only makes it
 * unpredictable, so that a person cannot choose which of their records count.
 */
public final class ContributionBounding {

  static final String UNIT_PREFIX = "train/contribution-bounding/";

  /**
   * What the bound kept.
   *
   * @param kept indices of the kept records, ascending
   * @param persons distinct persons
   * @param dropped records over the bound, not kept
   */
  public record Kept(int[] kept, int persons, int dropped) {
    public Kept {
      kept = kept.clone();
    }

    @Override
    public int[] kept() {
      return kept.clone();
    }
  }

  private ContributionBounding() {}

  /**
   * The records kept: at most {@code maxContributions} per person.
   *
   * @param persons the person of each record, none null
   * @param features the records' features, one row per record
   * @param labels the records' labels
   * @param maxContributions k &gt;= 1
   * @param source the key of the priorities
   * @throws IllegalArgumentException for a null person, mismatched lengths or k &lt; 1
   */
  public static Kept keep(String[] persons, double[][] features, double[] labels, int maxContributions,
      KeyedNoiseSource source) {
    Objects.requireNonNull(source, "source");
    if (maxContributions < 1) {
      throw new IllegalArgumentException("maxContributions must be >= 1, got " + maxContributions);
    }
    if (persons.length != features.length || persons.length != labels.length) {
      throw new IllegalArgumentException("persons, features and labels differ in length: " + persons.length + ", "
          + features.length + ", " + labels.length);
    }
    Map<String, List<Integer>> byPerson = new HashMap<>();
    for (int i = 0; i < persons.length; i++) {
      if (persons[i] == null) {
        throw new IllegalArgumentException("record " + (i + 1) + " has no person");
      }
      byPerson.computeIfAbsent(persons[i], p -> new ArrayList<>()).add(i);
    }
    List<Integer> kept = new ArrayList<>();
    byte[][] priorities = new byte[persons.length][];
    for (Map.Entry<String, List<Integer>> person : byPerson.entrySet()) {
      List<Integer> records = person.getValue();
      if (records.size() <= maxContributions) {
        kept.addAll(records);
        continue;
      }
      for (int i : records) {
        priorities[i] = priority(source, person.getKey(), features[i], labels[i]);
      }
      records.sort(Comparator.<Integer, byte[]>comparing(i -> priorities[i], Arrays::compareUnsigned)
          .thenComparing(i -> i));
      kept.addAll(records.subList(0, maxContributions));
    }
    int[] indices = kept.stream().mapToInt(Integer::intValue).sorted().toArray();
    return new Kept(indices, byPerson.size(), persons.length - indices.length);
  }

  /** HMAC(key, unit prefix || person, content): the unit and the content are length-prefixed, so injective. */
  static byte[] priority(KeyedNoiseSource source, String person, double[] features, double label) {
    ByteBuffer content = ByteBuffer.allocate(Double.BYTES * (features.length + 1));
    for (double x : features) {
      content.putDouble(x);
    }
    content.putDouble(label);
    return source.personPseudonym(UNIT_PREFIX + person, Base64.getEncoder().encodeToString(content.array()));
  }
}
