package org.dpstream.service.decide.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The digest index against a HashMap, on a table of 8 slots where the keys' homes collide (slots 0, 5, 6, 7, so
 * runs wrap around from the last slot to the first) and some keys differ only in their low half.
 */
class DigestIndexTest {

  private static final List<Digest128> KEYS = CollidingDigests.KEYS;

  /** Add (key, if absent, at a free position), or remove (a present key), by key number. */
  record Op(boolean add, int key) {}

  @Provide
  Arbitrary<List<Op>> ops() {
    return Arbitraries.integers().between(0, KEYS.size() - 1)
        .flatMap(key -> Arbitraries.of(true, false).map(add -> new Op(add, key)))
        .list().ofMinSize(1).ofMaxSize(120);
  }

  @Property(tries = 400, seed = "15015", edgeCases = EdgeCasesMode.NONE)
  void findsWhatAMapWouldAfterAnyAddsAndRemoves(@ForAll("ops") List<Op> ops,
      @ForAll @IntRange(min = 1, max = 7) int positions) {
    DigestIndex index = new DigestIndex(positions, CollidingDigests.TABLE_SIZE);
    Map<Digest128, Integer> model = new HashMap<>();
    for (Op op : ops) {
      Digest128 key = KEYS.get(op.key());
      if (op.add() && !model.containsKey(key) && model.size() < positions) {
        int free = 0;
        while (model.containsValue(free)) {
          free++;
        }
        index.add(key.high(), key.low(), free);
        model.put(key, free);
      } else if (!op.add() && model.containsKey(key)) {
        index.remove(model.remove(key));
      }
      for (Digest128 any : KEYS) {
        assertEquals(model.getOrDefault(any, -1), index.find(any.high(), any.low()), () -> any + " after " + op);
      }
    }
  }

  @Test
  void removingTheHeadOfARunThatWrapsAroundMovesBackOnlyTheEntriesAllowedBeforeTheirHome() {
    DigestIndex index = new DigestIndex(4, 8);
    Digest128 a = new Digest128(7, 1);   // slot 7
    Digest128 b = new Digest128(15, 2);  // home 7, slot 0
    Digest128 c = new Digest128(1, 3);   // home 1, slot 1
    Digest128 d = new Digest128(0, 4);   // home 0, slot 2
    index.add(a.high(), a.low(), 0);
    index.add(b.high(), b.low(), 1);
    index.add(c.high(), c.low(), 2);
    index.add(d.high(), d.low(), 3);
    index.remove(0);
    // b moves back to 7 (its home); c stays at its home 1; d moves back to 0 (its home) across the wrap.
    assertEquals(-1, index.find(a.high(), a.low()));
    assertEquals(1, index.find(b.high(), b.low()));
    assertEquals(2, index.find(c.high(), c.low()));
    assertEquals(3, index.find(d.high(), d.low()));
    assertEquals(-1, index.find(23, 9), "an absent key whose home is 7 ends its probe at the empty slot");
    index.remove(2);
    assertEquals(1, index.find(b.high(), b.low()));
    assertEquals(3, index.find(d.high(), d.low()));
    assertEquals(-1, index.find(c.high(), c.low()));
  }

  @Test
  void aTableMustBeAPowerOfTwoLargerThanThePositions() {
    assertThrows(IllegalArgumentException.class, () -> new DigestIndex(8, 8));
    assertThrows(IllegalArgumentException.class, () -> new DigestIndex(4, 12));
    assertThrows(IllegalArgumentException.class, () -> new DigestIndex(0));
    assertEquals(-1, new DigestIndex(1).find(0, 0));
  }

  @Test
  void theTableIsThePowerOfTwoAtLeastTwiceThePositions() {
    assertEquals(2, new DigestIndex(1).tableSize());
    assertEquals(8, new DigestIndex(4).tableSize());
    assertEquals(16, new DigestIndex(5).tableSize());
    assertEquals(524_288, new DigestIndex(200_000).tableSize(), "the default decider.memory: 2 MiB of index");
  }
}
