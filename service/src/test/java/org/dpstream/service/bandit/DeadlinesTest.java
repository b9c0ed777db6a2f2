package org.dpstream.service.bandit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

/** The deadline index: what is due is handed over in (due time, request) order, once, and nothing early. */
class DeadlinesTest {

  private final KeyValueStore<String, byte[]> store = BanditStores.bytes(BanditTopology.DEADLINES_STORE);

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
      handed.add(due.request().requestId() + "@" + due.indexKey().substring(2, 18));
      deadlines.remove(due);
      if (handed.size() == 1) {
        deadlines.index(due.request(), 600); // a completion marker whose purge time has passed as well
        deadlines.index(request("s"), 2_000); // not yet due
      }
    });
    assertEquals(List.of("r@" + String.format("%016x", 100), "r@" + String.format("%016x", 600)), handed);
    assertEquals(List.of("s"), expire(deadlines, 2_000));
  }

  @Test
  void aLoadedIndexStartsFromTheEarliestStoredDueTime() {
    Deadlines.load("b", store).index(request("stored"), 50);
    assertEquals(List.of("stored"), expire(Deadlines.load("b", store), 60),
        "a reloaded index finds what the store holds");
    assertEquals(List.of(), expire(Deadlines.load("b", store), Long.MAX_VALUE));
  }
}
