package org.dpstream.service.decide.memory;

/**
 * A hash index from 128-bit keys ({@link Digest128}) to positions {@code 0..positions-1}, in primitive arrays
 * allocated once: the key of each position in two {@code long[]}, and an open-addressing table ({@code int[]} of
 * position + 1, 0 = empty slot) with linear probing and backward-shift deletion, so that removals leave no
 * tombstones and a lookup never scans more than the run of occupied slots it lands in. Not thread-safe (the
 * decision memory guards it).
 *
 * <p>Hand-written because no library at hand fits: fastutil, Agrona, Eclipse Collections and HPPC key their
 * primitive maps by one {@code long} at most, and a 64-bit key would let two requests of the remembered window
 * share a key. The keys are SHA-256 bits, uniform already, so a slot is the key's low bits with no further mixing.
 */
final class DigestIndex {

  /** The largest number of positions: the table (a power of two at least twice as large) must fit an array. */
  static final int MAX_POSITIONS = 1 << 29;

  private final long[] high;
  private final long[] low;
  private final int[] slots;
  private final int mask;

  /** An index of {@code positions} positions over a table at least twice as large (at most half full). */
  DigestIndex(int positions) {
    this(positions, Integer.highestOneBit(Math.max(1, 2 * positions - 1)) << 1);
  }

  /** With a table of {@code tableSize} slots, a power of two larger than {@code positions} (tests use small ones). */
  DigestIndex(int positions, int tableSize) {
    if (positions < 1 || positions > MAX_POSITIONS) {
      throw new IllegalArgumentException("positions must be in 1.." + MAX_POSITIONS + ", got " + positions);
    }
    if (Integer.bitCount(tableSize) != 1 || tableSize <= positions) {
      throw new IllegalArgumentException("tableSize must be a power of two above " + positions + ", got " + tableSize);
    }
    high = new long[positions];
    low = new long[positions];
    slots = new int[tableSize];
    mask = tableSize - 1;
  }

  /** The position of the key, or -1. */
  int find(long keyHigh, long keyLow) {
    for (int slot = home(keyHigh); ; slot = (slot + 1) & mask) {
      int entry = slots[slot];
      if (entry == 0) {
        return -1;
      }
      int position = entry - 1;
      if (high[position] == keyHigh && low[position] == keyLow) {
        return position;
      }
    }
  }

  /** Gives a free position (one not in the index) the key, which must not be in the index. */
  void add(long keyHigh, long keyLow, int position) {
    high[position] = keyHigh;
    low[position] = keyLow;
    int slot = home(keyHigh);
    while (slots[slot] != 0) {
      slot = (slot + 1) & mask;
    }
    slots[slot] = position + 1;
  }

  /** Frees a position that is in the index; the entries after it in its run move back to keep every run unbroken. */
  void remove(int position) {
    int hole = home(high[position]);
    while (slots[hole] != position + 1) {
      hole = (hole + 1) & mask;
    }
    for (int next = (hole + 1) & mask; slots[next] != 0; next = (next + 1) & mask) {
      int nextHome = home(high[slots[next] - 1]);
      // The entry at next may fill the hole unless its home lies cyclically in (hole, next]: then it would sit
      // before its home and lookups, which start there, would not find it.
      boolean homeAfterHole = hole <= next ? hole < nextHome && nextHome <= next : hole < nextHome || nextHome <= next;
      if (!homeAfterHole) {
        slots[hole] = slots[next];
        hole = next;
      }
    }
    slots[hole] = 0;
  }

  /** Slots in the table (4 bytes each). */
  int tableSize() {
    return slots.length;
  }

  private int home(long keyHigh) {
    return (int) keyHigh & mask;
  }
}
