package org.dpstream.service.bandit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.service.topology.Rejections;
import org.junit.jupiter.api.Test;

/** A reward held until its timeout, found under its request, rejected as the record it came in, or dropped. */
class HeldRewardsTest {

  private static final RequestKey REQUEST = new RequestKey(Caller.DEFAULT, "r1");

  private final KeyValueStore<String, byte[]> store = BanditStores.bytes(BanditTopology.PENDING_STORE);
  private final HeldRewards held = new HeldRewards(store);
  private final PendingRequests pending = new PendingRequests(store);
  private final Deadlines deadlines = Deadlines.load("b", store);

  static RejectedRecord rejection(String reason) {
    return Rejections.build(reason, "no decision", new byte[] {'k'}, new byte[] {1, 2, 3}, "dp.rewards", 4, 99L);
  }

  private List<String> dueBy(long now) {
    List<String> due = new ArrayList<>();
    deadlines.expireDue(now, d -> due.add(d.request().requestId()));
    return due;
  }

  @Test
  void aHeldRewardIsFoundUnderItsRequestAndDueAtItsTimeout() {
    held.hold("b", REQUEST, 0.75, 2_000, Duration.ofMillis(300), "b", rejection("UNKNOWN_REQUEST"), deadlines);
    HeldReward found = assertInstanceOf(PendingRequests.Held.class, pending.find("b", REQUEST)).reward();
    assertEquals(0.75, found.reward());
    assertEquals(2_000, found.timestamp());
    assertEquals(2_300, found.dueAt());
    assertEquals(List.of(), dueBy(2_299));
    assertEquals(List.of("r1"), dueBy(2_300));
  }

  @Test
  void aHeldRewardIsRejectedAsTheRecordItCameIn() {
    HeldReward reward = held.hold("b", REQUEST, 1.0, 2_000, Duration.ofMillis(300), "original-key",
        rejection("UNKNOWN_REQUEST"), deadlines);
    Record<String, Object> record = held.rejection(reward, "CONTRIBUTION_LIMIT", "over the limit");
    assertEquals("original-key", record.key());
    assertEquals(2_000, record.timestamp(), "the reward's own timestamp");
    RejectedRecord rejected = assertInstanceOf(RejectedRecord.class, record.value());
    assertEquals("CONTRIBUTION_LIMIT", rejected.getReason());
    assertEquals("over the limit", rejected.getMessage());
    assertEquals(rejection("x").getSourceOffset(), rejected.getSourceOffset());
    assertArrayEquals(new byte[] {1, 2, 3}, bytes(rejected.getOriginalValue()), "its original bytes");
  }

  @Test
  void aDroppedRewardIsNeitherStoredNorDue() {
    HeldReward reward = held.hold("b", REQUEST, 1.0, 2_000, Duration.ofMillis(300), null,
        rejection("UNKNOWN_REQUEST"), deadlines);
    assertNull(held.rejection(reward, "UNKNOWN_REQUEST", "m").key());
    held.drop("b", REQUEST, reward, deadlines);
    assertInstanceOf(PendingRequests.Empty.class, pending.find("b", REQUEST));
    assertEquals(List.of(), dueBy(Long.MAX_VALUE));
  }

  private static byte[] bytes(ByteBuffer buffer) {
    byte[] out = new byte[buffer.remaining()];
    buffer.duplicate().get(out);
    return out;
  }
}
