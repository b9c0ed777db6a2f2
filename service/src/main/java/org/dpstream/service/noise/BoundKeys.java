package org.dpstream.service.noise;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.dpstream.core.privacy.random.KeyCheck;
import org.dpstream.core.privacy.random.NoiseKeyRing;

/**
 * The key each stored state of this instance's tasks is bound to (read from its header), for the gauge
 * {@code dpstream.noise.key.bound.states{key, role}}: how many models and bandits still need each key of the ring. A
 * retired key can be removed once its count is 0 on every instance. A task's states are counted from its store when
 * it starts and as they are written; a task that closes forgets its own. Thread-safe.
 *
 * <p>Public: a state is bound to a retired key until its next epoch boundary, a function of its step (every release
 * states it; the stream's length is public under replace-one neighbours) and of when the operator rotated.
 */
public final class BoundKeys {

  /** The gauge's name. */
  public static final String GAUGE = "dpstream.noise.key.bound.states";

  private final Map<String, KeyCheck> byState = new ConcurrentHashMap<>();

  /** {@code state} (e.g. {@code "model m"}) is stored bound to {@code key}. */
  public void bind(String state, KeyCheck key) {
    byState.put(state, key);
  }

  /** {@code state} is not counted here any more (its task closed). */
  public void forget(String state) {
    byState.remove(state);
  }

  /** The states of this instance bound to {@code key}. */
  public long count(KeyCheck key) {
    return byState.values().stream().filter(key::equals).count();
  }

  /** Registers one gauge per key of {@code keys}, tagged with its check value and its role (primary, retired). */
  public void register(MeterRegistry registry, NoiseKeyRing keys) {
    gauge(registry, keys.primary().keyCheck(), "primary");
    keys.retiredChecks().forEach(check -> gauge(registry, check, "retired"));
  }

  private void gauge(MeterRegistry registry, KeyCheck key, String role) {
    Gauge.builder(GAUGE, () -> count(key)).tag("key", key.hex()).tag("role", role)
        .description("models and bandits whose stored state is bound to this noise key (by its check value):"
            + " a retired key may be removed once this is 0 on every instance")
        .register(registry);
  }
}
