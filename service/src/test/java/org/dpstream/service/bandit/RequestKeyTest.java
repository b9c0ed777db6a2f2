package org.dpstream.service.bandit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** Requests of different callers never share a key in a bandit's stores, and a pending key gives its request back. */
class RequestKeyTest {

  private static final String BANDIT = "offers";

  /** Request ids of any characters, the separators included, so that a default-scope id can mimic a scoped key. */
  @Provide
  Arbitrary<String> requestIds() {
    return Arbitraries.strings().withChars("ab\u0000\u0001\u0002").ofMinLength(1).ofMaxLength(6)
        .injectDuplicates(0.2);
  }

  @Provide
  Arbitrary<Caller> callers() {
    return Arbitraries.oneOf(Arbitraries.just(Caller.DEFAULT),
        Arbitraries.strings().withChars("ab\u0001=, ").ofMinLength(1).ofMaxLength(4).map(Caller::new));
  }

  @Property(seed = "4116")
  void twoRequestsShareAPendingKeyOnlyIfTheyAreTheSameRequest(@ForAll("callers") Caller c1,
      @ForAll("requestIds") String r1, @ForAll("callers") Caller c2, @ForAll("requestIds") String r2) {
    RequestKey a = new RequestKey(c1, r1);
    RequestKey b = new RequestKey(c2, r2);
    assertEquals(a.equals(b), a.pendingKey(BANDIT).equals(b.pendingKey(BANDIT)), a + " vs " + b);
  }

  @Property(seed = "4117")
  void aPendingKeyGivesItsRequestBackAndLiesInItsBanditsRangeOnly(@ForAll("callers") Caller caller,
      @ForAll("requestIds") String requestId) {
    RequestKey request = new RequestKey(caller, requestId);
    String key = request.pendingKey(BANDIT);
    assertEquals(request, RequestKey.ofPendingKey(BANDIT, key));
    assertEquals(request, RequestKey.ofScopedId(request.scopedId()));
    // Within the range the deadline index is rebuilt from, and outside that of a bandit whose id extends this one's.
    assertTrue(key.compareTo(RequestKey.pendingStart(BANDIT)) >= 0);
    assertTrue(key.compareTo(RequestKey.pendingEnd(BANDIT)) < 0);
    String longer = BANDIT + "\u0002";
    assertTrue(request.pendingKey(longer).compareTo(RequestKey.pendingEnd(BANDIT)) > 0);
  }

  @Test
  void theDefaultScopeKeepsTheKeysWrittenBeforeCallersExisted() {
    assertEquals("offers\u0000r1", new RequestKey(Caller.DEFAULT, "r1").pendingKey(BANDIT));
    assertNotEquals("offers\u0000r1", new RequestKey(new Caller("alice"), "r1").pendingKey(BANDIT));
  }

  @Test
  void aCallerIsANonEmptyNameWithoutNul() {
    assertThrows(IllegalArgumentException.class, () -> new Caller(""));
    assertThrows(IllegalArgumentException.class, () -> new Caller("a\u0000b"));
    assertEquals(Caller.DEFAULT, Caller.ofRecord(null));
  }
}
