package org.dpstream.service.noise;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The models and bandits whose state is refused in this instance, by the processors that own them: /ready answers
 * 503 naming each and its code while any is refused, and each is logged once, not once per record. A task that
 * closes clears its own (the state may resume where the task goes next). Thread-safe: every stream thread reports
 * here.
 *
 * <p>What it shows is raw data in one respect: a state is refused when its first record arrives, so a line says a
 * record of that model or bandit arrived after the start (as dp.rejected does); its step and epoch, which decide
 * what key it needs, are public under replace-one neighbours (every release states its step). docs/privacy-layer.md.
 */
public final class RefusedStates {

  private record Refused(StateRefusal reason, String message) {}

  private final Map<String, Refused> refused = new ConcurrentHashMap<>();

  /**
   * Records that {@code what} (e.g. {@code "model m"}) is refused.
   *
   * @return whether it was not refused before (the caller logs it once)
   */
  public boolean refuse(String what, RefusedStateException e) {
    return refused.putIfAbsent(what, new Refused(e.reason(), e.getMessage())) == null;
  }

  /** {@code what} is no longer this instance's to refuse (its task closed). */
  public void clear(String what) {
    refused.remove(what);
  }

  /** One line per refused state, sorted: what /ready's body says while it answers 503. */
  public List<String> readinessProblems() {
    return refused.entrySet().stream().sorted(Map.Entry.comparingByKey())
        .map(e -> e.getKey() + " refused (" + e.getValue().reason() + "): " + e.getValue().message())
        .toList();
  }
}
