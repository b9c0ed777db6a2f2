package org.dpstream.service.bandit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.kafka.streams.state.KeyValueStore;
import org.dpstream.bandit.Decision;
import org.junit.jupiter.api.Test;

/**
 * The deadline index: what is due is handed over in (due time, request) order, once, and nothing early; rebuilt from
 * the pending store, it holds what the store holds.
 */
class DeadlinesTest {

  private final KeyValueStore<String, byte[]> store = BanditStores.bytes(BanditTopology.PENDING_STORE);

  private static RequestKey request(String id) {
    return new RequestKey(Caller.DEFAULT, id);
  }

  /** Expires everything due by {@code now}, removing each from the index; the request ids in the order handed. */
  private static List<String> expire(Deadlines deadlines, long now) {
    List<String> handed = new ArrayList<>();
    deadlines.expireDue(now, due -> {
      handed.add(due.request().requestId());
      deadlines.remove(due);
    });
    return handed;
  }

  @Test
  void dueRequestsAreHandedInDueTimeThenRequestOrderAndOnlyOnce() {
    Deadlines deadlines = Deadlines.load("b", store);
    deadlines.index(request("late"), 500);
    deadlines.index(request("r2"), 300);
    deadlines.index(request("z1"), 100);
    deadlines.index(request("a1"), 100);
    assertEquals(List.of(), expire(deadlines, 99));
    assertEquals(List.of("a1", "z1", "r2"), expire(deadlines, 300));
    assertEquals(List.of(), expire(deadlines, 300), "each is handed over once");
    assertEquals(List.of("late"), expire(deadlines, 500));
  }

  @Test
  void aRemovedRequestIsNotHandedOverAndAnotherBanditsRequestsAreNot() {
    Deadlines deadlines = Deadlines.load("b", store);
    Deadlines other = Deadlines.load("b1", store);
    deadlines.index(request("kept"), 10);
    deadlines.index(request("answered"), 10);
    deadlines.remove(request("answered"), 10);
    other.index(request("theirs"), 5);
    assertEquals(List.of("kept"), expire(deadlines, 10));
    assertEquals(List.of("theirs"), expire(other, 10));
  }

  @Test
  void whatTheExpiryIndexesAsAlreadyDueIsHandedOverInAFurtherPass() {
    Deadlines deadlines = Deadlines.load("b", store);
    deadlines.index(request("r"), 100);
    List<String> handed = new ArrayList<>();
    deadlines.expireDue(1_000, due -> {
      handed.add(due.request().requestId() + "@" + due.dueAt());
      deadlines.remove(due);
      if (handed.size() == 1) {
        deadlines.index(due.request(), 600); // a completion marker whose purge time has passed as well
        deadlines.index(request("s"), 2_000); // not yet due
      }
    });
    assertEquals(List.of("r@100", "r@600"), handed);
    assertEquals(List.of("s"), expire(deadlines, 2_000));
  }

  /**
   * The index is rebuilt from every kind of pending-store entry of the bandit, each at its due time, and from no
   * other bandit's: a pending request at its deadline, a completion marker at its purge time, a held reward at its
   * timeout.
   */
  @Test
  void aLoadedIndexHoldsEachPendingStoreEntryOfTheBanditAtItsDueTime() {
    Duration timeout = Duration.ofMillis(100);
    PendingRequests pending = new PendingRequests(store);
    Deadlines written = Deadlines.load("b", store);
    PendingRequest decided = PendingRequests.pending(new Decision(0, Decision.Phase.GREEDY, 1), 1_000, timeout,
        new double[] {1});
    pending.keep("b", request("pending"), decided, written); // due at 1,100
    pending.keep("b", request("joined"), PendingRequests.pending(new Decision(1, Decision.Phase.GREEDY, 2), 900,
        timeout, new double[] {1}), written);
    pending.complete("b", request("joined"), PendingRequests.pending(new Decision(1, Decision.Phase.GREEDY, 2), 900,
        timeout, new double[] {1}), PendingRequest.Status.JOINED, written); // purged at 1,100
    new HeldRewards(store).hold("b", new RequestKey(new Caller("alice"), "held"), 0.5, 1_050, timeout, "b",
        HeldRewardsTest.rejection("UNKNOWN_REQUEST"), written); // due at 1,150
    pending.keep("b1", request("theirs"), decided, Deadlines.load("b1", store));

    List<String> handed = new ArrayList<>();
    Deadlines.load("b", store).expireDue(Long.MAX_VALUE,
        due -> handed.add(due.request().requestId() + "@" + due.dueAt()));
    assertEquals(List.of("joined@1100", "pending@1100", "held@1150"), handed);
  }

  @Provide
  Arbitrary<List<Deadlines.Due>> dues() {
    Arbitrary<Caller> callers = Arbitraries.oneOf(Arbitraries.just(Caller.DEFAULT),
        Arbitraries.strings().withChars("a\u0001\u00e9\ud83d\ude00").ofMinLength(1).ofMaxLength(3)
            .filter(DeadlinesTest::wellFormed).map(Caller::new));
    // Any characters: below and above the surrogates, and pairs of them, whose UTF-16 order is not their UTF-8 order.
    Arbitrary<String> ids = Arbitraries.strings().withChars("a\u0000\u0001\u00e9\uffee\ud83d\ude00").ofMinLength(1)
        .ofMaxLength(4).filter(DeadlinesTest::wellFormed);
    Arbitrary<Long> times = Arbitraries.longs().between(0, 3);
    return Combinators.combine(callers, ids, times).as((c, id, t) -> new Deadlines.Due(new RequestKey(c, id), t))
        .list().ofMaxSize(12).uniqueElements();
  }

  /** Without lone surrogates: a string UTF-8 keeps as it is (as every id decoded from an Avro record is). */
  private static boolean wellFormed(String s) {
    return s.equals(new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8));
  }

  /**
   * The key a request had in the stored index this replaces ({@code banditId NUL 16 hex digits of the time
   * scopedId}), in the bytes RocksDB ordered it by.
   */
  private static byte[] storedIndexKey(Deadlines.Due due) {
    return ("b\u0000" + String.format(Locale.ROOT, "%016x", due.dueAt()) + due.request().scopedId())
        .getBytes(StandardCharsets.UTF_8);
  }

  /** For any requests and due times, the expiry order is the order of the stored index's keys. */
  @Property(seed = "4115")
  void requestsExpireInTheOrderOfTheStoredIndexKeys(@ForAll("dues") List<Deadlines.Due> dues) {
    Deadlines deadlines = Deadlines.load("b", BanditStores.bytes(BanditTopology.PENDING_STORE));
    dues.forEach(due -> deadlines.index(due.request(), due.dueAt()));
    List<Deadlines.Due> handed = new ArrayList<>();
    deadlines.expireDue(Long.MAX_VALUE, handed::add);
    List<Deadlines.Due> stored = new ArrayList<>(dues);
    stored.sort(Comparator.comparing(DeadlinesTest::storedIndexKey, Arrays::compareUnsigned));
    assertEquals(stored, handed);
  }
}
