package org.dpstream.service.bandit;

import java.util.HexFormat;

/**
 * How a request is keyed in a bandit's stores: (caller, request id) within the bandit.
 *
 * <ul>
 *   <li>pending store: {@code banditId NUL requestId} in the default scope (the keys written before callers
 *       existed), {@code banditId U+0001 caller NUL requestId} for a named caller;
 *   <li>deadline index: {@code banditId NUL hex(time) NUL requestId}, or {@code banditId NUL hex(time) U+0001 caller
 *       NUL requestId}, so that the keys still sort by time.
 * </ul>
 *
 * No two (caller, request id) pairs share a key: bandit ids contain neither NUL nor U+0001 (refused in
 * {@code bandits[].id}), callers contain no NUL ({@link Caller}), and the character after the bandit id (after the
 * time, in the index) tells the two forms apart whatever the request id holds.
 */
record RequestKey(Caller caller, String requestId) {

  private static final char SEPARATOR = '\u0000';
  private static final char SCOPED = '\u0001';
  private static final HexFormat HEX = HexFormat.of();
  /** Characters of the time in an index key. */
  private static final int TIME_DIGITS = 16;

  String pendingKey(String banditId) {
    return caller.isDefault() ? banditId + SEPARATOR + requestId
        : banditId + SCOPED + caller.name() + SEPARATOR + requestId;
  }

  String indexKey(String banditId, long time) {
    String prefix = indexPrefix(banditId, time);
    return caller.isDefault() ? prefix + SEPARATOR + requestId
        : prefix + SCOPED + caller.name() + SEPARATOR + requestId;
  }

  /** The request of an index key of this bandit. */
  static RequestKey ofIndexKey(String banditId, String key) {
    int at = banditId.length() + 1 + TIME_DIGITS;
    if (key.charAt(at) == SEPARATOR) {
      return new RequestKey(Caller.DEFAULT, key.substring(at + 1));
    }
    int end = key.indexOf(SEPARATOR, at + 1);
    return new RequestKey(new Caller(key.substring(at + 1, end)), key.substring(end + 1));
  }

  /**
   * {@code banditId NUL} and the time as 16 lowercase hex digits (negative times as 0), so that keys sort by
   * time. HexFormat, not String.format: this runs two or three times per bandit record, and String.format's
   * parsing of the pattern was a tenth of the learning thread's time at 2,000 rounds/s
   * (docs/bandit-decider.md, "Learning at 2,000 rounds/s"). The keys are the same.
   */
  static String indexPrefix(String banditId, long time) {
    return banditId + SEPARATOR + HEX.toHexDigits(Math.max(0, time));
  }

  /** The last possible index key of the bandit at {@code time} (a range's inclusive end). */
  static String indexEnd(String banditId, long time) {
    return indexPrefix(banditId, time) + (char) (SCOPED + 1);
  }
}
