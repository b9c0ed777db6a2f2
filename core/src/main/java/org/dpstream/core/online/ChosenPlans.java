package org.dpstream.core.online;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.HexFormat;
import java.util.function.Function;
import java.util.function.Supplier;

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

  /**
   * The noise laws of estimators on chosen plans, by the spec's fingerprint and the estimator's algorithm, each with
   * the plan it was computed for. A law (its probes run the mechanism on the public probe key) costs as much as
   * calibrating, and every restore of a model checks its state against it.
   */
  private static final Cache<String, PlanLaw> LAWS =
      Caffeine.newBuilder().maximumSize(DEFAULT_CAPACITY).executor(Runnable::run).build();

  private record PlanLaw(PrefixSumPlan plan, byte[] law) {}

  private ChosenPlans() {}

  /**
   * The noise law of an {@code algorithm} estimator of {@code spec} on {@code plan}, which {@code compute} computes:
   * once while {@code plan} is the plan chosen for the spec (a law is a function of the spec and its plan), each time
   * for a plan chosen elsewhere (a test seam's). The caller gets its own copy.
   */
  static byte[] law(OnlineModelSpec spec, PrefixSumPlan plan, String algorithm, Supplier<byte[]> compute) {
    String planKey = HexFormat.of().formatHex(spec.fingerprint());
    if (PLANS.getIfPresent(planKey) != plan) {
      return compute.get();
    }
    String key = planKey + "/" + algorithm;
    PlanLaw known = LAWS.getIfPresent(key);
    if (known == null || known.plan() != plan) {
      known = new PlanLaw(plan, compute.get());
      LAWS.put(key, known);
    }
    return known.law().clone();
  }

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
    LAWS.policy().eviction().orElseThrow().setMaximum(plans);
  }

  /**
   * Empties the cache and restores its default bound; only tests call it. Mutation testing hot-swaps one mutant after another into one JVM, and an
   * entry built under an earlier mutant would answer for the code under test: tests start from an empty cache.
   */
  static void clearForTests() {
    PLANS.invalidateAll();
    PLANS.policy().eviction().orElseThrow().setMaximum(DEFAULT_CAPACITY);
    PLANS.cleanUp();
    LAWS.invalidateAll();
    LAWS.policy().eviction().orElseThrow().setMaximum(DEFAULT_CAPACITY);
    LAWS.cleanUp();
  }

  /** How many plans are kept now, after pending evictions. */
  static long size() {
    PLANS.cleanUp();
    return PLANS.estimatedSize();
  }
}
