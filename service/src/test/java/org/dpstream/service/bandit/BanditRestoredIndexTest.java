package org.dpstream.service.bandit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.dpstream.bandit.Decision;
import org.dpstream.bandit.hdb.JointPrivacyLoss;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.schemas.DecidedRequest;
import org.dpstream.schemas.DecisionPhase;
import org.dpstream.schemas.DecisionResponse;
import org.dpstream.schemas.Reward;
import org.dpstream.service.config.BanditConfig;
import org.dpstream.service.metrics.BanditMetrics;
import org.dpstream.service.noise.NoiseContext;
import org.dpstream.service.serde.DpSerdes;
import org.junit.jupiter.api.Test;

/**
 * The deadline index is rebuilt from the pending store when the processor is initialised: a bandit task initialised
 * again on restored stores holding pending requests, held rewards and completion markers (as Kafka Streams does after
 * a dirty close under exactly-once, on the same processor object, or on another instance with a new one) expires,
 * joins, rejects and purges at the same records, in the same order, with the same outputs as a task that never
 * stopped; and what the processor held in memory for records whose writes were lost plays no part.
 */
class BanditRestoredIndexTest {

  private static final long TIMEOUT_MS = BanditTopologyTest.TIMEOUT_MS;
  /** Routed records carry the input they were read from in this header ({@code RoutedInput}). */
  private static final String INPUT_HEADER = "dpstream.input";

  /** A record of the routing topic: a logged decision or a reward. */
  private record Event(long timestamp, boolean decided, String requestId, int arm, double reward) {}

  /**
   * Decisions every 100 ms; rewards after 1 to 40 decisions, every 5th before its decision (held), every 7th
   * never (expired); every 11th decision has an extra reward of a request never decided (held, then rejected).
   */
  private static List<Event> events(int n, long seed) {
    SplittableRandom random = new SplittableRandom(seed); // simulation only
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      long t = i * 100L;
      String id = "r" + i;
      double r = BanditTopologyTest.reward(i);
      if (i % 5 == 2) {
        events.add(new Event(t, false, id, 0, r));
        events.add(new Event(t + 50, true, id, i % 2, 0));
        continue;
      }
      events.add(new Event(t, true, id, i % 2, 0));
      if (i % 7 != 3) {
        events.add(new Event(t + 100L * (1 + random.nextInt(40)) + 50, false, id, 0, r));
      }
      if (i % 11 == 5) {
        events.add(new Event(t + 25, false, "orphan" + i, 0, 0.5));
      }
    }
    events.sort(Comparator.comparingLong(Event::timestamp)); // stable: a reward before its decision stays so
    long end = events.get(events.size() - 1).timestamp();
    events.add(new Event(end + 3 * TIMEOUT_MS, true, "last", 0, 0)); // everything before it is due by then
    return events;
  }

  /** The processor with its stores and a context that keeps what it forwarded, logging what each record did. */
  private static final class Task {
    final List<String> log = new ArrayList<>();
    final BanditProcessor processor;
    KeyValueStore<String, byte[]> states = BanditStores.bytes(BanditTopology.STATE_STORE);
    KeyValueStore<String, byte[]> pending = BanditStores.bytes(BanditTopology.PENDING_STORE);
    KeyValueStore<String, Long> clocks = BanditStores.longs(BanditTopology.CLOCK_STORE);
    MockProcessorContext<String, Object> context;
    private int position;

    Task() {
      BanditMetrics metrics = new BanditMetrics() {
        @Override
        public void decided(String banditId, Decision decision, long latencyNanos) {}

        @Override
        public void joined(String banditId, double reward, long rounds, JointPrivacyLoss spent) {
          log.add(position + " joined round " + rounds);
        }

        @Override
        public void expired(String banditId, boolean imputed, long rounds, JointPrivacyLoss spent) {
          log.add(position + " expired, imputed " + imputed + ", round " + rounds);
        }

        @Override
        public void rejected(String banditId, String reason) {
          log.add(position + " rejected " + reason);
        }
      };
      processor = new BanditProcessor(BanditTopologyTest.CONFIG.banditRegistry(), 1,
          NoiseContext.of(new KeyedNoiseSource(BanditTopologyTest.key())), metrics, true, BanditPolicies.PRIVATE);
      init();
    }

    /** Initialises the processor on the task's stores, as Kafka Streams does when it (re)starts the task. */
    void init() {
      context = new MockProcessorContext<>();
      context.addStateStore(states);
      context.addStateStore(pending);
      context.addStateStore(clocks);
      processor.init(context);
    }

    /** The stores as a restore from their changelogs would leave them: what they hold now, in new stores. */
    void restoreFrom(Task committed) {
      states = copy(committed.states, BanditStores.bytes(BanditTopology.STATE_STORE));
      pending = copy(committed.pending, BanditStores.bytes(BanditTopology.PENDING_STORE));
      clocks = copy(committed.clocks, BanditStores.longs(BanditTopology.CLOCK_STORE));
      init();
    }

    void process(String bandit, List<Event> events, int from, int to) {
      for (position = from; position < to; position++) {
        Event e = events.get(position);
        RecordHeaders headers = new RecordHeaders();
        headers.add(INPUT_HEADER, (e.decided() ? BanditTopology.DECIDED_INPUT : BanditTopology.REWARDS_INPUT)
            .getBytes(StandardCharsets.UTF_8));
        processor.process(new Record<>(bandit, e.decided() ? decided(e) : reward(e), e.timestamp(), headers));
        context.forwarded().forEach(f -> log.add(position + " " + f.record().key() + " " + f.record().value()));
        context.resetForwards();
      }
    }

    /** From {@code position} on. */
    List<String> logFrom(int position) {
      return log.stream().filter(line -> Integer.parseInt(line.substring(0, line.indexOf(' '))) >= position).toList();
    }
  }

  private static <V> KeyValueStore<String, V> copy(KeyValueStore<String, V> from, KeyValueStore<String, V> to) {
    try (KeyValueIterator<String, V> it = from.all()) {
      it.forEachRemaining(kv -> to.put(kv.key, kv.value));
    }
    return to;
  }

  private static byte[] decided(Event e) {
    double[] x = BanditTopologyTest.context(e.requestId().hashCode());
    return DpSerdes.decidedRequest().encode(DecidedRequest.newBuilder()
        .setDecision(DecisionResponse.newBuilder().setRequestId(e.requestId()).setArm(e.arm()).setModelStep(0)
            .setPhase(DecisionPhase.WARM_UP).build())
        .setContext(Arrays.stream(x).boxed().toList()).build());
  }

  private static byte[] reward(Event e) {
    return DpSerdes.reward().encode(Reward.newBuilder().setRequestId(e.requestId()).setReward(e.reward()).build());
  }

  /** How many pending requests, completion markers and held rewards the store holds. */
  private static int[] kinds(KeyValueStore<String, byte[]> pending) {
    int[] kinds = new int[3];
    try (KeyValueIterator<String, byte[]> it = pending.all()) {
      it.forEachRemaining(kv -> {
        if (HeldReward.isHeld(kv.value)) {
          kinds[2]++;
        } else {
          kinds[PendingRequest.decode(kv.value).status() == PendingRequest.Status.PENDING ? 0 : 1]++;
        }
      });
    }
    return kinds;
  }

  @Test
  void aTaskInitialisedAgainOnRestoredStoresExpiresAsOneThatNeverStopped() {
    for (BanditConfig config : List.of(BanditTopologyTest.DROP, BanditTopologyTest.IMPUTE)) {
      List<Event> events = events(300, 47);
      int restart = events.size() / 2;
      int lost = restart + 40;

      Task neverStopped = new Task();
      neverStopped.process(config.id(), events, 0, events.size());

      Task revived = new Task();
      revived.process(config.id(), events, 0, restart);
      int[] kinds = kinds(revived.pending);
      assertTrue(kinds[0] > 10 && kinds[1] > 10 && kinds[2] > 0,
          "the restored store holds every kind: " + Arrays.toString(kinds));
      Task committed = new Task(); // what the changelogs hold: the stores as of the last commit
      committed.restoreFrom(revived);
      // Records processed after the last commit, whose writes a dirty close loses: the processor object saw them.
      revived.process(config.id(), events, restart, lost);
      revived.log.clear();
      revived.restoreFrom(committed);
      revived.process(config.id(), events, restart, events.size());

      Task moved = new Task();
      moved.restoreFrom(committed);
      moved.process(config.id(), events, restart, events.size());

      List<String> expected = neverStopped.logFrom(restart);
      assertTrue(expected.stream().filter(line -> line.contains("expired")).count() > 10
          && expected.stream().anyMatch(line -> line.contains("UNKNOWN_REQUEST")), "expiry is exercised");
      assertEquals(expected, revived.logFrom(restart), config.id() + ": the same object initialised again");
      assertEquals(expected, moved.logFrom(restart), config.id() + ": a new processor");
      assertEquals(Arrays.toString(kinds(neverStopped.pending)), Arrays.toString(kinds(moved.pending)));
    }
  }

}
