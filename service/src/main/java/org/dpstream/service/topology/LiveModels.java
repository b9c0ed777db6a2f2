package org.dpstream.service.topology;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.function.Function;

/**
 * The models a task keeps loaded: at most {@code capacity}, the least recently stepped dropped first (the JDK's
 * access-ordered {@link LinkedHashMap}), and none that has not stepped for a while ({@link #dropUnusedSince}). Dropping
 * loses nothing: a model's state is written to the task's store after every step, and its next sample loads it from
 * there as after a restart (bit for bit the same releases), so the task's heap holds the estimators of the models that
 * step, not of every model it has seen.
 */
final class LiveModels<V> {

  /** A loaded model and when it was last used, in the caller's clock. */
  private static final class Slot<V> {
    final V value;
    long lastUsed;

    Slot(V value, long lastUsed) {
      this.value = value;
      this.lastUsed = lastUsed;
    }
  }

  private final int capacity;
  private final LinkedHashMap<String, Slot<V>> slots = new LinkedHashMap<>(16, 0.75f, true);

  LiveModels(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("at least one live model, got " + capacity);
    }
    this.capacity = capacity;
  }

  /** The model {@code id}, loaded by {@code load} if it is not loaded; marked used at {@code now}. */
  V use(String id, Function<String, V> load, long now) {
    Slot<V> slot = slots.get(id);
    if (slot == null) {
      slot = new Slot<>(load.apply(id), now);
      slots.put(id, slot);
      if (slots.size() > capacity) {
        Iterator<Slot<V>> eldest = slots.values().iterator();
        eldest.next();
        eldest.remove();
      }
    }
    slot.lastUsed = now;
    return slot.value;
  }

  /** Drops every model last used before {@code cutoff}. */
  void dropUnusedSince(long cutoff) {
    // Access order: the least recently used come first, so the scan stops at the first model used since.
    Iterator<Slot<V>> oldestFirst = slots.values().iterator();
    while (oldestFirst.hasNext() && oldestFirst.next().lastUsed < cutoff) {
      oldestFirst.remove();
    }
  }

  void remove(String id) {
    slots.remove(id);
  }

  void clear() {
    slots.clear();
  }

  int size() {
    return slots.size();
  }

  boolean contains(String id) {
    return slots.containsKey(id);
  }
}
