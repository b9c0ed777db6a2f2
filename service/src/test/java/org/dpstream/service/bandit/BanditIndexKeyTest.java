package org.dpstream.service.bandit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The deadline index's keys are stored (and changelogged): a faster formatting must write the same keys, or
 * a restarted bandit would miss the entries written before the upgrade.
 */
class BanditIndexKeyTest {

  /** A default-scope request's index key: the keys written before callers existed. */
  private static String key(String banditId, long time, String requestId) {
    return new RequestKey(Caller.DEFAULT, requestId).indexKey(banditId, time);
  }

  @Test
  void keysAreTheBanditNulSixteenLowercaseHexDigitsOfTheTimeNulTheRequest() {
    assertEquals("b\u00000000000000000000\u0000r1", key("b", 0, "r1"));
    assertEquals("b\u00000000000000000abc\u0000r1", key("b", 0xabc, "r1"));
    assertEquals("offers\u000000000195974a8c40\u0000x", key("offers", 1_742_000_000_064L, "x"));
    assertEquals("b\u00007fffffffffffffff\u0000r", key("b", Long.MAX_VALUE, "r"));
  }

  @Test
  void aNegativeTimeIsIndexedAtZero() {
    assertEquals("b\u00000000000000000000\u0000r", key("b", -1, "r"));
    assertEquals("b\u00000000000000000000\u0000r", key("b", Long.MIN_VALUE, "r"));
  }

  /** The earlier key format (String.format), as keys already in users' stores were written. */
  @Test
  void theKeysEqualThoseOfThePreviousFormatting() {
    long[] times = {0, 1, 15, 16, 255, 4096, 1_700_000_000_000L, 1_742_000_123_456L, 0x0123456789abcdefL,
        Long.MAX_VALUE - 1, Long.MAX_VALUE, -5};
    for (long time : times) {
      String previous = "bandit\u0000" + String.format(Locale.ROOT, "%016x", Math.max(0, time)) + "\u0000req";
      assertEquals(previous, key("bandit", time, "req"), "time " + time);
    }
  }

  @Test
  void keysSortByTime() {
    long[] increasing = {0, 9, 10, 15, 16, 255, 256, 1_700_000_000_000L, Long.MAX_VALUE};
    for (int i = 1; i < increasing.length; i++) {
      assertTrue(key("b", increasing[i - 1], "z")
          .compareTo(key("b", increasing[i], "a")) < 0, "at " + increasing[i]);
    }
  }
}
