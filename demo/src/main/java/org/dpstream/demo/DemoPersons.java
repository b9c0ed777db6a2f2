package org.dpstream.demo;

/**
 * Who sends each sample of a person-level model's stream, a known distribution: persons 0, 1, 2, ... send 1, 2, ...,
 * {@value #MOST_SAMPLES}, 1, 2, ... samples in turn, each person's samples one after another. So every block of
 * {@value #MOST_SAMPLES} persons sends {@value #SAMPLES_PER_BLOCK} samples, 5.5 per person on average. Synthetic ids
 * ({@code demo-person-N}), a pure function of the sample's index: simulation, not data.
 */
final class DemoPersons {

  /** The most samples one person sends. */
  static final int MOST_SAMPLES = 10;
  /** Samples of a block of {@value #MOST_SAMPLES} persons: 1 + 2 + ... + 10. */
  static final int SAMPLES_PER_BLOCK = MOST_SAMPLES * (MOST_SAMPLES + 1) / 2;

  /** The id of the person who sends the {@code index}-th sample (0-based). */
  String personOf(long index) {
    return "demo-person-" + personIndex(index);
  }

  /** The number of the person who sends the {@code index}-th sample. */
  static long personIndex(long index) {
    long block = index / SAMPLES_PER_BLOCK;
    long offset = index % SAMPLES_PER_BLOCK;
    int person = 0;
    // Person j of a block (0-based) sends j + 1 samples, starting at offset j (j + 1) / 2.
    while ((long) (person + 1) * (person + 2) / 2 <= offset) {
      person++;
    }
    return block * MOST_SAMPLES + person;
  }

  /**
   * How many of the first {@code samples} samples a bound of {@code k} per person rejects: each person's samples past
   * its k-th.
   */
  static long overTheBound(long samples, int k) {
    long rejected = 0;
    long start = 0;
    for (long person = 0; start < samples; person++) {
      long sent = Math.min(person % MOST_SAMPLES + 1, samples - start);
      rejected += Math.max(0, sent - k);
      start += person % MOST_SAMPLES + 1;
    }
    return rejected;
  }
}
