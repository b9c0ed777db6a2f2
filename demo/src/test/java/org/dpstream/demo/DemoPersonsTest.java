package org.dpstream.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The demo's persons: 1, 2, ..., 10 samples each in turn, and the count a bound of k rejects. */
class DemoPersonsTest {

  @Test
  void personsSendOneToTenSamplesEachInTurn() {
    DemoPersons persons = new DemoPersons();
    Map<String, Integer> counts = new HashMap<>();
    for (long i = 0; i < 2 * DemoPersons.SAMPLES_PER_BLOCK; i++) {
      counts.merge(persons.personOf(i), 1, Integer::sum);
    }
    assertEquals(20, counts.size());
    for (int person = 0; person < 20; person++) {
      assertEquals(person % 10 + 1, counts.get("demo-person-" + person), "person " + person);
    }
    // Consecutive: person 3 sends samples 6..9.
    assertEquals(3, DemoPersons.personIndex(6));
    assertEquals(3, DemoPersons.personIndex(9));
    assertEquals(4, DemoPersons.personIndex(10));
    assertEquals(10, DemoPersons.personIndex(55));
  }

  @Test
  void aBoundOfFiveRejectsFifteenOfEveryFiftyFiveSamples() {
    assertEquals(15, DemoPersons.overTheBound(55, 5));
    assertEquals(0, DemoPersons.overTheBound(15, 5)); // persons 0..4 send 1..5
    assertEquals(1, DemoPersons.overTheBound(21, 5)); // person 5 sends its 6th sample last
  }

  @Test
  void overTheBoundCountsEachPersonsSamplesPastTheKth() {
    // Every stream length up to three blocks and every k from 1 to past the most a person sends.
    Map<Long, Long> counts = new HashMap<>();
    for (long samples = 0; samples <= 3 * DemoPersons.SAMPLES_PER_BLOCK; samples++) {
      for (int k = 1; k <= DemoPersons.MOST_SAMPLES + 1; k++) {
        int bound = k;
        long expected = counts.values().stream().mapToLong(c -> Math.max(0, c - bound)).sum();
        assertEquals(expected, DemoPersons.overTheBound(samples, k), samples + " samples, k = " + k);
      }
      counts.merge(DemoPersons.personIndex(samples), 1L, Long::sum);
    }
  }
}
