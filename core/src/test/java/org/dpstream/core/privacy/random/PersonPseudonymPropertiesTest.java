package org.dpstream.core.privacy.random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.dpstream.core.privacy.testing.TestKeys;

/**
 * A person's pseudonym ({@link KeyedNoiseSource#personPseudonym}) is a function of the key, the unit and the id:
 * for any ids it is the same on every call and under any scope of the key, two (unit, person) pairs never share one,
 * another key gives another, and it never holds the id's bytes.
 */
class PersonPseudonymPropertiesTest {

  private static final KeyedNoiseSource KEY = new KeyedNoiseSource(TestKeys.seeded(31));
  private static final KeyedNoiseSource OTHER_KEY = new KeyedNoiseSource(TestKeys.seeded(32));

  @Provide
  Arbitrary<String> ids() {
    // short strings over a small alphabet make near-collisions of the encoding likely ("a" + "bc" vs "ab" + "c")
    return Arbitraries.strings().withChars('a', 'b', '/', '\u0000', '\u00e9').ofMaxLength(5);
  }

  @Property(tries = 2000, seed = "3131")
  void distinctUnitsOrPersonsNeverShareAPseudonym(@ForAll("ids") String unitA, @ForAll("ids") String personA,
      @ForAll("ids") String unitB, @ForAll("ids") String personB) {
    byte[] a = KEY.personPseudonym(unitA, personA);
    assertEquals(KeyedNoiseSource.PERSON_PSEUDONYM_BYTES, a.length);
    if (unitA.equals(unitB) && personA.equals(personB)) {
      assertArrayEquals(a, KEY.personPseudonym(unitB, personB));
    } else {
      assertFalse(Arrays.equals(a, KEY.personPseudonym(unitB, personB)), unitA + "/" + personA + " vs " + unitB + "/" + personB);
    }
  }

  @Property(tries = 500, seed = "3232")
  void itIsTheKeysAloneAndSaysNothingOfTheId(@ForAll("ids") String unit, @ForAll("ids") String person) {
    byte[] pseudonym = KEY.personPseudonym(unit, person);
    assertArrayEquals(pseudonym, KEY.scoped("p0").kind("bandit").part("x").personPseudonym(unit, person));
    assertFalse(Arrays.equals(pseudonym, OTHER_KEY.personPseudonym(unit, person)));
    byte[] id = person.getBytes(StandardCharsets.UTF_8);
    if (id.length >= 3) {
      String hex = HexFormat.of().formatHex(pseudonym);
      assertFalse(hex.contains(HexFormat.of().formatHex(id)), "the id's bytes are in its pseudonym");
    }
  }
}
