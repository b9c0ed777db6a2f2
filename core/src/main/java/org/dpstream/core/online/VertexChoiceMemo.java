package org.dpstream.core.online;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Memoises {@link VertexChoice}s. Calibrating takes milliseconds (a 1-D search for the tight zCDP
 * conversion) and policies build many identical estimators (DP-HDB: one per arm, and once more per
 * restore), while a choice is immutable and a function of a few public numbers. A small LRU: a service
 * has few distinct specs.
 */
final class VertexChoiceMemo {

  private static final int CAPACITY = 64;

  /** What a vertex choice is a function of. */
  private record Key(boolean paper, int dimension, double epsilon, double delta, long horizon, double diameter,
      double difference, double gradient, int participations) {}

  private static final Map<Key, VertexChoice> CHOICES = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Key, VertexChoice> eldest) {
      return size() > CAPACITY;
    }
  };

  private VertexChoiceMemo() {}

  /**
   * Empties the cache; only tests call it. Mutation testing hot-swaps one mutant after another into one JVM, and an
   * entry built under an earlier mutant would answer for the code under test: tests start from an empty cache.
   */
  static void clearForTests() {
    synchronized (CHOICES) {
      CHOICES.clear();
    }
  }

  static VertexChoice of(OnlineModelSpec spec) {
    Key key = new Key(spec.accountant() == AccountantChoice.PAPER, spec.dimension(), spec.budget().epsilon(),
        spec.budget().delta(), spec.horizon(), spec.domain().diameter(), spec.clipBounds().difference(),
        spec.clipBounds().gradient(), spec.participations());
    synchronized (CHOICES) {
      VertexChoice known = CHOICES.get(key);
      if (known != null) {
        return known;
      }
    }
    VertexChoice built = VertexChoice.build(spec);
    synchronized (CHOICES) {
      CHOICES.putIfAbsent(key, built);
      return CHOICES.get(key);
    }
  }
}
