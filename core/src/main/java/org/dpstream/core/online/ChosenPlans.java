package org.dpstream.core.online;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.HexFormat;
import java.util.function.Function;

/**
 * The prefix-sum plans already chosen, by the spec's fingerprint: a model's plan (its sigma, its privacy map) is
 * computed once, the first time it is asked for, and starting or restoring the model takes that plan instead of
 * calibrating again. Plans are immutable and a deterministic function of the spec, which the
 * fingerprint digests field by field (the model id included: an adaptive plan draws its histogram's noise
 * under it), so dropping an entry costs only time.
 *
 * <p>Bounded ({@link #DEFAULT_CAPACITY} plans unless the service sizes it to its models, {@link #keepAtMost}): past
 * the bound the plans least likely to be asked for again leave (Caffeine's W-TinyLFU, an LRU window with a frequency
 * filter), so a model reloaded while thousands of others step keeps its plan rather than calibrating again.
 */
final class ChosenPlans {

  static final int DEFAULT_CAPACITY = 1024;
  // Evictions run on the calling thread: no background task, and a size the tests can read after cleanUp.
  private static final Cache<String, PrefixSumPlan> PLANS =
      Caffeine.newBuilder().maximumSize(DEFAULT_CAPACITY).executor(Runnable::run).build();

  private ChosenPlans() {}

  static PrefixSumPlan of(OnlineModelSpec spec, Function<OnlineModelSpec, PrefixSumPlan> build) {
    String key = HexFormat.of().formatHex(spec.fingerprint());
    PrefixSumPlan chosen = PLANS.getIfPresent(key);
    if (chosen != null) {
      return chosen;
    }
    // Built outside the cache's lock: a calibration can take milliseconds, and other specs' look-ups must not wait.
    PrefixSumPlan built = build.apply(spec);
    PrefixSumPlan raced = PLANS.asMap().putIfAbsent(key, built);
    return raced != null ? raced : built;
  }

  /** Keeps at most {@code plans} plans from now on (at least one). */
  static void keepAtMost(long plans) {
    if (plans < 1) {
      throw new IllegalArgumentException("the plan cache must keep at least one plan, got " + plans);
    }
    PLANS.policy().eviction().orElseThrow().setMaximum(plans);
  }

  /**
   * Empties the cache and restores its default bound; only tests call it. Mutation testing hot-swaps one mutant after another into one JVM, and an
   * entry built under an earlier mutant would answer for the code under test: tests start from an empty cache.
   */
  static void clearForTests() {
    PLANS.invalidateAll();
    PLANS.policy().eviction().orElseThrow().setMaximum(DEFAULT_CAPACITY);
    PLANS.cleanUp();
  }

  /** How many plans are kept now, after pending evictions. */
  static long size() {
    PLANS.cleanUp();
    return PLANS.estimatedSize();
  }
}
