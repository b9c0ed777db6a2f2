package org.dpstream.service.bandit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterTry;
import net.jqwik.api.lifecycle.BeforeTry;
import org.apache.kafka.streams.test.TestRecord;
import org.dpstream.schemas.DecidedRequest;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.service.metrics.MicrometerBanditMetrics;
import org.dpstream.service.serde.DpSerdes;

/**
 * A person-level bandit (at most k = 2 rounds per person) under any person ids (any strings, blank or none), any
 * order of logged decisions and rewards, repeated request ids and reward timeouts: no person has more than k
 * requests accepted, a request is refused for its person's limit only once k were accepted, a request without a
 * person is refused, each reward has one outcome, every release names the unit, and no store holds an id.
 */
class PersonLevelBanditPropertiesTest {

  private static final String BANDIT = PersonLevelBanditTopologyTest.TWO.id();
  private static final int K = 2;
  private static final long TIMEOUT_MS = 10_000;

  enum Kind { DECISION, REWARD }

  /** person: an index into the session's ids, or -1 for none. */
  record Event(Kind kind, int request, int person, int arm, double reward, long delayMillis) {}

  record Session(List<String> ids, List<Event> events) {}

  private Path stateDir;
  private SimpleMeterRegistry meters;
  private BanditDriver log;

  @BeforeTry
  void start() throws IOException {
    stateDir = Files.createTempDirectory("person-level-bandit");
    meters = new SimpleMeterRegistry();
    log = PersonLevelBanditTopologyTest.driver(stateDir, BanditTopology.Deciding.BY_DECIDERS,
        new MicrometerBanditMetrics(meters));
  }

  @AfterTry
  void stop() throws IOException {
    log.closeAndDelete(stateDir);
  }

  @Provide
  Arbitrary<Session> sessions() {
    // Ids start with a marker, so that a store is searched for them without chance matches; anything may follow.
    Arbitrary<String> id = Arbitraries.frequencyOf(
        Tuple.of(6, Arbitraries.strings().ofMaxLength(6).map(s -> "id:" + s)),
        Tuple.of(1, Arbitraries.of("", " ", "\t")));
    Arbitrary<Event> event = Combinators.combine(
        Arbitraries.of(Kind.values()),
        Arbitraries.integers().between(0, 9),
        Arbitraries.integers().between(-1, 3),
        Arbitraries.integers().between(0, 1),
        Arbitraries.doubles().between(-2, 2),
        Arbitraries.frequencyOf(Tuple.of(8, Arbitraries.longs().between(0, 50)),
            Tuple.of(1, Arbitraries.longs().between(TIMEOUT_MS - 5, TIMEOUT_MS + 5)),
            Tuple.of(1, Arbitraries.longs().between(2 * TIMEOUT_MS, 3 * TIMEOUT_MS))))
        .as(Event::new);
    return Combinators.combine(id.list().ofSize(4), event.list().ofMinSize(1).ofMaxSize(30)).as(Session::new);
  }

  @Property(tries = 25, seed = "3131", edgeCases = EdgeCasesMode.NONE)
  void noPersonHasMoreThanKRequestsAcceptedAndNoStoreHoldsAnId(@ForAll("sessions") Session session) {
    long clock = 1_000;
    Map<String, Integer> sentByPerson = new HashMap<>();
    int anonymous = 0;
    int rewards = 0;
    for (Event e : session.events()) {
      clock += e.delayMillis();
      String requestId = "r" + e.request();
      if (e.kind() == Kind.DECISION) {
        String person = e.person() < 0 ? null : session.ids().get(e.person());
        log.requests.pipeInput(record(PersonLevelBanditTopologyTest.decided(requestId, person, e.arm(),
            BanditTopologyTest.context(e.request())), clock));
        if (person == null || person.isBlank()) {
          anonymous++;
        } else {
          sentByPerson.merge(person, 1, Integer::sum);
        }
      } else {
        log.rewards.pipeInput(record(PersonLevelBanditTopologyTest.reward(requestId, e.reward()), clock));
        rewards++;
      }
    }
    // Past every deadline and hold time: whatever waits is resolved before this (anonymous) request is handled.
    log.requests.pipeInput(record(PersonLevelBanditTopologyTest.decided("flush", null, 0, new double[3]),
        clock + 3 * TIMEOUT_MS + 1));
    anonymous++;

    List<RejectedRecord> rejections = log.rejected.readValuesToList();
    assertTrue(rejections.stream().noneMatch(r -> r.getReason().equals("PROCESSING_ERROR")), rejections::toString);
    String decidedTopic = log.topics.decided().name();
    Map<String, Integer> refusedByPerson = new HashMap<>();
    Map<String, Integer> limitedByPerson = new HashMap<>();
    int missing = 0;
    for (RejectedRecord r : rejections) {
      assertTrue(session.ids().stream().filter(id -> !id.isBlank()).noneMatch(id -> r.getMessage().contains(id)),
          "a message never names a person: " + r.getMessage());
      if (!r.getSourceTopic().equals(decidedTopic)) {
        continue;
      }
      DecidedRequest original = DpSerdes.decidedRequest().decodeOrThrow(PersonLevelBanditTopologyTest.bytes(
          r.getOriginalValue()));
      String person = original.getUserId();
      if (person == null || person.isBlank()) {
        // MISSING_USER_ID, unless a check that comes first refused it (a request id already decided, a stale one)
        assertTrue(List.of(BanditRejection.MISSING_USER_ID.name(), BanditRejection.DUPLICATE_REQUEST.name(),
            BanditRejection.STALE_DECISION.name()).contains(r.getReason()), r.getReason());
        missing++;
        continue;
      }
      refusedByPerson.merge(person, 1, Integer::sum);
      if (r.getReason().equals(BanditRejection.CONTRIBUTION_LIMIT.name())) {
        limitedByPerson.merge(person, 1, Integer::sum);
      }
    }
    assertEquals(anonymous, missing, "every request without a person is refused");
    for (Map.Entry<String, Integer> sent : sentByPerson.entrySet()) {
      int accepted = sent.getValue() - refusedByPerson.getOrDefault(sent.getKey(), 0);
      assertTrue(accepted <= K, accepted + " requests of one person accepted");
      if (limitedByPerson.containsKey(sent.getKey())) {
        assertEquals(K, accepted, "refused for the limit only once k were accepted");
      }
    }
    long rejectedRewards = rejections.stream().filter(r -> !r.getSourceTopic().equals(decidedTopic)).count();
    assertEquals(rewards, count("dpstream.bandit.rewards.joined") + rejectedRewards,
        "each reward: one round or one rejection");
    for (ModelRelease release : log.releases.readValuesToList()) {
      assertEquals("user", release.getLedger().getPrivacyUnit());
      assertEquals(K, release.getLedger().getMaxContributions());
    }
    List<String> ids = session.ids().stream().filter(id -> !id.isBlank()).toList();
    int persons = (int) sentByPerson.keySet().stream()
        .filter(p -> sentByPerson.get(p) > refusedByPerson.getOrDefault(p, 0)).count();
    assertEquals(persons, PersonLevelBanditTopologyTest.assertNoIdIn(log.driver, ids),
        "one count per person with an accepted request");
  }

  private long count(String name) {
    return (long) meters.find(name).tag("bandit", BANDIT).counters().stream().mapToDouble(Counter::count).sum();
  }

  private static TestRecord<byte[], byte[]> record(byte[] value, long timestamp) {
    return new TestRecord<>(BANDIT.getBytes(StandardCharsets.UTF_8), value, null, timestamp);
  }
}
