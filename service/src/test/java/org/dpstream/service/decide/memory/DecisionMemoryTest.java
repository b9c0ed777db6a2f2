package org.dpstream.service.decide.memory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.dpstream.schemas.DecisionPhase;
import org.dpstream.service.decide.memory.DecisionMemory.Found;
import org.dpstream.service.decide.memory.DecisionMemory.Logged;
import org.dpstream.service.decide.memory.DecisionMemory.Outcome;
import org.dpstream.service.decide.memory.DecisionMemory.Write;
import org.junit.jupiter.api.Test;

/**
 * The decision memory: against a LinkedHashMap in insertion order (the simplest correct memory) over random
 * sequences of decisions, restores, lookups and time, on an 8-slot index whose keys collide; then the write state
 * of single decisions (what is written again, what is dropped once acknowledged).
 */
class DecisionMemoryTest {

  private static final long WINDOW = 30;
  private static final Digest128 CONTEXT = new Digest128(100, 1);
  private static final Digest128 OTHER_CONTEXT = new Digest128(100, 2);
  private static final List<Digest128> KEYS = CollidingDigests.KEYS;

  /** decide (now moves on by {@code millis}), restore (a log record {@code millis} old), or look a key up. */
  enum Kind { DECIDE, RESTORE, GET }

  record Op(Kind kind, int key, boolean otherContext, int millis) {}

  private record Remembered(Logged logged, long at) {}

  /** The reference: insertion order, oldest dropped first by time then by capacity. */
  private static final class Model {
    final LinkedHashMap<Digest128, Remembered> entries = new LinkedHashMap<>();
    final int capacity;

    Model(int capacity) {
      this.capacity = capacity;
    }

    void evict(long now) {
      Iterator<Map.Entry<Digest128, Remembered>> it = entries.entrySet().iterator();
      while (it.hasNext() && it.next().getValue().at() < now - WINDOW) {
        it.remove();
      }
    }

    /** The known decision, or null once {@code logged} is remembered. */
    Logged remember(Digest128 key, Logged logged, long at) {
      evict(at);
      Remembered known = entries.get(key);
      if (known != null) {
        return known.logged();
      }
      if (entries.size() == capacity) {
        entries.remove(entries.keySet().iterator().next());
      }
      entries.put(key, new Remembered(logged, at));
      return null;
    }
  }

  @Provide
  Arbitrary<List<Op>> ops() {
    return Combinators.combine(Arbitraries.of(Kind.class), Arbitraries.integers().between(0, KEYS.size() - 1),
        Arbitraries.integers().between(0, 9).map(i -> i == 0), Arbitraries.integers().between(0, 12))
        .as(Op::new).list().ofMinSize(1).ofMaxSize(150);
  }

  @Property(tries = 400, seed = "15016", edgeCases = EdgeCasesMode.NONE)
  void remembersWhatAnInsertionOrderedMapWould(@ForAll("ops") List<Op> ops,
      @ForAll @IntRange(min = 1, max = 7) int capacity) {
    DecisionMemory memory =
        new DecisionMemory(WINDOW, capacity, new DigestIndex(capacity, CollidingDigests.TABLE_SIZE));
    Model model = new Model(capacity);
    long now = 1_000;
    int step = 0;
    for (Op op : ops) {
      Digest128 key = KEYS.get(op.key());
      Logged logged = new Logged(step % 5, step, step % 2 == 0 ? DecisionPhase.GREEDY : DecisionPhase.WARM_UP,
          now - op.millis(), op.otherContext() ? OTHER_CONTEXT : CONTEXT);
      step++;
      switch (op.kind()) {
        case DECIDE -> {
          now += op.millis();
          Found found = memory.rememberIfAbsent(key, logged, new byte[] {1}, now, false);
          Logged known = model.remember(key, logged, now);
          if (known == null) {
            assertEquals(Outcome.CREATED, found.outcome(), op::toString);
            assertSame(logged, found.logged());
            assertNotNull(found.write());
          } else {
            assertEquals(known.context().equals(logged.context()) ? Outcome.FOUND : Outcome.OTHER_CONTEXT,
                found.outcome(), op::toString);
            assertEquals(known, found.logged(), op::toString);
            assertNull(found.write(), "nothing failed and nothing is to be resent");
          }
        }
        case RESTORE -> {
          memory.restore(key, logged, now - op.millis());
          model.remember(key, logged, now - op.millis());
        }
        case GET -> { }
      }
      assertEquals(model.entries.size(), memory.size(), op::toString);
      for (Digest128 any : KEYS) {
        Remembered expected = model.entries.get(any);
        assertEquals(expected == null ? null : expected.logged(), memory.get(any), () -> any + " after " + op);
      }
    }
  }

  private static final Digest128 KEY = new Digest128(42, 42);
  private static final byte[] LOG = {7, 7};

  private static Logged logged(int arm, Digest128 context) {
    return new Logged(arm, 3, DecisionPhase.GREEDY, 500, context);
  }

  private static void finish(DecisionMemory memory, Write write, boolean succeeded) {
    memory.settle(write, succeeded);
    if (succeeded) {
      write.done().complete(null);
    } else {
      write.done().completeExceptionally(new RuntimeException("broker gone"));
    }
  }

  @Test
  void aNewDecisionIsWrittenWithItsLogRecordAndKeepsNoObjectOnceAcknowledged() {
    DecisionMemory memory = new DecisionMemory(60_000, 10);
    Found created = memory.rememberIfAbsent(KEY, logged(1, CONTEXT), LOG, 0, false);
    assertEquals(Outcome.CREATED, created.outcome());
    Write write = created.write();
    assertArrayEquals(LOG, write.logValue());
    assertTrue(write.after().isDone());
    assertSame(write.done(), created.written());
    assertSame(write.done(), memory.written(KEY), "a reward waits for the write under way");
    assertEquals(1, memory.pendingCount());

    finish(memory, write, true);
    assertEquals(0, memory.pendingCount(), "acknowledged: nothing but primitives left");
    assertTrue(memory.written(KEY).isDone());
    assertFalse(memory.written(KEY).isCompletedExceptionally());
    Found again = memory.rememberIfAbsent(KEY, logged(4, CONTEXT), LOG, 1, false);
    assertEquals(new Found(Outcome.FOUND, logged(1, CONTEXT), again.written(), null), again);
    assertTrue(again.written().isDone());
    Found other = memory.rememberIfAbsent(KEY, logged(4, OTHER_CONTEXT), LOG, 2, true);
    assertEquals(Outcome.OTHER_CONTEXT, other.outcome());
    assertNull(other.write(), "nothing is written for another context, even when replayed");
    assertEquals(0, memory.pendingCount());
  }

  @Test
  void decisionsWhoseWritesAreUnderWayAtOnceAreSettledEachOnItsOwn() {
    DecisionMemory memory = new DecisionMemory(60_000, 10);
    Digest128 other = new Digest128(43, 43);
    Write first = memory.rememberIfAbsent(KEY, logged(1, CONTEXT), LOG, 0, false).write();
    Write second = memory.rememberIfAbsent(other, logged(2, CONTEXT), LOG, 0, false).write();
    assertSame(first.done(), memory.written(KEY));
    assertSame(second.done(), memory.written(other));
    finish(memory, second, true);
    assertSame(first.done(), memory.written(KEY), "still under way");
    assertTrue(memory.written(other).isDone());
    assertEquals(1, memory.pendingCount());
    finish(memory, first, false);
    assertTrue(memory.written(KEY).isCompletedExceptionally());
    assertFalse(memory.written(other).isCompletedExceptionally());
  }

  @Test
  void aFailedWriteStaysUntilTheRequestIsDecidedAgainThenItIsWrittenAgainWithItsLogRecord() {
    DecisionMemory memory = new DecisionMemory(60_000, 10);
    Write first = memory.rememberIfAbsent(KEY, logged(1, CONTEXT), LOG, 0, false).write();
    finish(memory, first, false);
    assertEquals(1, memory.pendingCount());
    assertTrue(memory.written(KEY).isCompletedExceptionally(), "a reward is refused");

    Found retry = memory.rememberIfAbsent(KEY, logged(2, CONTEXT), new byte[] {9}, 1, false);
    assertEquals(Outcome.FOUND, retry.outcome());
    assertEquals(1, retry.logged().arm());
    assertArrayEquals(LOG, retry.write().logValue(), "the first decision's log record, not the candidate's");
    assertTrue(retry.write().after().isDone());
    assertFalse(retry.written().isDone());
    assertSame(retry.write().done(), memory.written(KEY));
    finish(memory, retry.write(), true);
    assertEquals(0, memory.pendingCount());
    assertFalse(memory.written(KEY).isCompletedExceptionally());
  }

  @Test
  void aReplayResendsTheDecisionAloneAfterTheWriteUnderWayAndIfThatFailsOnlyTheDecisionIsWrittenAgain() {
    DecisionMemory memory = new DecisionMemory(60_000, 10);
    Write first = memory.rememberIfAbsent(KEY, logged(1, CONTEXT), LOG, 0, false).write();
    Found replay = memory.rememberIfAbsent(KEY, logged(1, CONTEXT), LOG, 1, true);
    Write resend = replay.write();
    assertNull(resend.logValue(), "the log record is the first write's");
    assertSame(first.done(), resend.after(), "sent after the first write");
    assertSame(resend.done(), memory.written(KEY));

    finish(memory, first, true);
    assertEquals(1, memory.pendingCount(), "the resend is still under way");
    finish(memory, resend, false);
    assertTrue(memory.written(KEY).isCompletedExceptionally());
    Write again = memory.rememberIfAbsent(KEY, logged(1, CONTEXT), LOG, 2, false).write();
    assertNull(again.logValue(), "the log acknowledged its record: only the decision is written again");
    finish(memory, again, true);
    assertEquals(0, memory.pendingCount());

    Write late = memory.rememberIfAbsent(KEY, logged(1, CONTEXT), LOG, 3, true).write();
    assertNull(late.logValue());
    assertTrue(late.after().isDone(), "acknowledged already: resent at once");
    assertEquals(1, memory.pendingCount(), "an object again while the resend is under way");
    finish(memory, late, true);
    assertEquals(0, memory.pendingCount());
  }

  @Test
  void aDecisionDroppedWhileItsWriteIsUnderWayTakesItsStateWithItAndItsSettlingTouchesNoOther() {
    DecisionMemory memory = new DecisionMemory(60_000, 1);
    Write first = memory.rememberIfAbsent(KEY, logged(1, CONTEXT), LOG, 0, false).write();
    Digest128 next = new Digest128(43, 43);
    Write second = memory.rememberIfAbsent(next, logged(2, CONTEXT), LOG, 1, false).write();
    assertNull(memory.get(KEY), "over capacity: the oldest is dropped");
    assertEquals(1, memory.pendingCount());
    finish(memory, first, true);
    assertSame(second.done(), memory.written(next), "the slot's new decision keeps its own write");
    assertEquals(1, memory.pendingCount());
    finish(memory, second, true);
    assertEquals(0, memory.pendingCount());
  }

  @Test
  void aRestoredDecisionIsAcknowledgedAndIsDroppedOnceOlderThanTheWindow() {
    DecisionMemory memory = new DecisionMemory(60_000, 10);
    memory.restore(KEY, logged(3, CONTEXT), 1_000);
    assertEquals(0, memory.pendingCount());
    Found found = memory.rememberIfAbsent(KEY, logged(4, CONTEXT), LOG, 61_000, false);
    assertEquals(Outcome.FOUND, found.outcome(), "60 s old: still remembered");
    assertEquals(3, found.logged().arm());
    assertNull(found.write());
    CompletableFuture<Void> written = memory.written(KEY);
    assertTrue(written.isDone() && !written.isCompletedExceptionally());
    assertEquals(Outcome.CREATED, memory.rememberIfAbsent(KEY, logged(4, CONTEXT), LOG, 61_001, false).outcome(),
        "older than the window: forgotten, decided anew");
  }
}
