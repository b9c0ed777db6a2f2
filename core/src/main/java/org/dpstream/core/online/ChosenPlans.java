package org.dpstream.core.online;

import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The prefix-sum plans already chosen, by the spec's fingerprint: a model's plan (its sigma, its privacy map) is
 * computed once, the first time it is asked for, and starting or restoring the model takes that plan instead of
 * calibrating again. Plans are immutable and a deterministic function of the spec, which the
 * fingerprint digests field by field (the model id included: an adaptive plan draws its histogram's noise
 * under it), so dropping an entry costs only time.
 */
final class ChosenPlans {

  private static final int LIMIT = 1024;
  private static final Map<String, PrefixSumPlan> PLANS = new ConcurrentHashMap<>();

  private ChosenPlans() {}

  static PrefixSumPlan of(OnlineModelSpec spec, Function<OnlineModelSpec, PrefixSumPlan> build) {
    String key = HexFormat.of().formatHex(spec.fingerprint());
    PrefixSumPlan chosen = PLANS.get(key);
    if (chosen != null) {
      return chosen;
    }
    PrefixSumPlan built = build.apply(spec);
    if (PLANS.size() >= LIMIT) {
      PLANS.clear();
    }
    PrefixSumPlan raced = PLANS.putIfAbsent(key, built);
    return raced != null ? raced : built;
  }
}
