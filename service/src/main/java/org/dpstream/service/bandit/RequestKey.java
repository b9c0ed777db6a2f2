package org.dpstream.service.bandit;

import java.nio.charset.StandardCharsets;

/**
 * How a request is keyed in a bandit's pending store: (caller, request id) within the bandit, as
 * {@code banditId NUL requestId} in the default scope (the keys written before callers existed) and
 * {@code banditId U+0001 caller NUL requestId} for a named caller. What follows the bandit id is the request's
 * {@link #scopedId}; the deadline index orders the requests of one due time by its UTF-8 bytes.
 *
 * No two (caller, request id) pairs share a key: bandit ids contain neither NUL nor U+0001 (refused in
 * {@code bandits[].id}), callers contain no NUL ({@link Caller}), and the character after the bandit id tells the two
 * forms apart whatever the request id holds.
 */
record RequestKey(Caller caller, String requestId) {

  private static final char SEPARATOR = '\u0000';
  private static final char SCOPED = '\u0001';

  String pendingKey(String banditId) {
    return banditId + scopedId();
  }

  /** The request within its bandit: {@code NUL requestId}, or {@code U+0001 caller NUL requestId}. */
  String scopedId() {
    return caller.isDefault() ? SEPARATOR + requestId : SCOPED + caller.name() + SEPARATOR + requestId;
  }

  /** {@link #scopedId} in UTF-8. */
  byte[] scopedIdBytes() {
    return scopedId().getBytes(StandardCharsets.UTF_8);
  }

  /** The request of a {@link #scopedId}. */
  static RequestKey ofScopedId(String scopedId) {
    if (scopedId.charAt(0) == SEPARATOR) {
      return new RequestKey(Caller.DEFAULT, scopedId.substring(1));
    }
    int end = scopedId.indexOf(SEPARATOR, 1);
    return new RequestKey(new Caller(scopedId.substring(1, end)), scopedId.substring(end + 1));
  }

  /** The request of a pending-store key of this bandit. */
  static RequestKey ofPendingKey(String banditId, String key) {
    return ofScopedId(key.substring(banditId.length()));
  }

  /** The first possible pending-store key of the bandit (a range's inclusive start). */
  static String pendingStart(String banditId) {
    return banditId + SEPARATOR;
  }

  /**
   * A bound past every pending-store key of the bandit (a range's inclusive end): no key equals it, since every key
   * has a request after the bandit id's NUL or U+0001.
   */
  static String pendingEnd(String banditId) {
    return banditId + (char) (SCOPED + 1);
  }
}
