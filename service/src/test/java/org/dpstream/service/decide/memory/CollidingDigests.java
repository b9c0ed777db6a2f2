package org.dpstream.service.decide.memory;

import java.util.ArrayList;
import java.util.List;

/**
 * Keys for an index of 8 slots whose homes collide: 12 keys whose homes are slots 0, 5, 6 and 7 (so runs wrap
 * around from the last slot to the first); key i and key i + 4 (i < 4) differ only in their low half.
 */
final class CollidingDigests {

  static final int TABLE_SIZE = 8;
  static final List<Digest128> KEYS = keys();

  private CollidingDigests() {}

  private static List<Digest128> keys() {
    long[] homes = {0, 5, 6, 7};
    List<Digest128> keys = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      keys.add(new Digest128(homes[i % 4] + TABLE_SIZE * (i / 8L), i));
    }
    return List.copyOf(keys);
  }
}
