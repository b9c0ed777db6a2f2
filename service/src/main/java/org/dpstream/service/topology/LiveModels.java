package org.dpstream.service.topology;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The models a task keeps loaded, at most {@code capacity}, the least recently stepped dropped first (the JDK's
 * access-ordered {@link LinkedHashMap}). Dropping loses nothing: a model's state is written to the task's store after
 * every step, and its next sample loads it from there as after a restart, so the task's heap holds the estimators of
 * the models that step, not of every model it has seen.
 */
final class LiveModels<V> extends LinkedHashMap<String, V> {

  private final int capacity;

  LiveModels(int capacity) {
    super(16, 0.75f, true);
    if (capacity < 1) {
      throw new IllegalArgumentException("at least one live model, got " + capacity);
    }
    this.capacity = capacity;
  }

  @Override
  protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
    return size() > capacity;
  }
}
