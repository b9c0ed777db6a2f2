package org.dpstream.service.decide.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.dpstream.bandit.release.ReleasedBandit;
import org.dpstream.schemas.DecidedRequest;
import org.dpstream.service.bandit.BanditRejection;
import org.dpstream.service.bandit.Caller;
import org.dpstream.service.config.BanditConfig;
import org.dpstream.service.config.BanditRegistry;
import org.dpstream.service.decide.Decider;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.serde.DpSerdes;
import org.junit.jupiter.api.Test;

/**
 * The deciders of a person-level bandit: a request without its person is refused before it is decided (nothing
 * written); a request with one is decided as any other and its person goes onto the decision log for learning to
 * count; an event-level bandit's log carries none.
 */
class PersonLevelDecisionsTest {

  private static final BanditConfig PER_PERSON = new BanditConfig("per-person", 2, 3, "logistic", 1.0, "0.1", 5L, 1,
      1e-5, 1_000, 1.0, 1.0, "10s", "drop", null, 1, "dp-hdb", null, null, null, null, null, null,
      Map.of("by", "user", "maxContributions", 3));
  private static final BanditRegistry REGISTRY = new BanditRegistry(Map.of("per-person", PER_PERSON.toEntry(),
      "offers", OffersDecisions.REGISTRY.find("offers").orElseThrow()));

  @Test
  void aRequestWithoutItsPersonIsRefusedAndOneWithItLogsThePerson() throws Exception {
    OffersDecisions decisions = new OffersDecisions(true, REGISTRY);
    for (String bandit : List.of("per-person", "offers")) {
      decisions.released.publish(new ReleasedBandit(bandit, "dp-hdb", 4, new double[3][2], Map.of()));
    }
    for (String none : new String[] {null, "", "  "}) {
      Decider.Refused refused = assertThrows(Decider.Refused.class, () -> decisions.service.decideAndHand(
          "per-person", Caller.DEFAULT, "r0", List.of(0.1, 0.2), none, 1_000, false));
      assertEquals(BanditRejection.MISSING_USER_ID.name(), refused.code());
    }
    assertTrue(decisions.producer.history().isEmpty(), "nothing written for a refused request");

    decisions.service.decideAndHand("per-person", Caller.DEFAULT, "r1", List.of(0.1, 0.2), "person-1", 1_000, false)
        .written().get();
    decisions.service.decideAndHand("offers", Caller.DEFAULT, "r1", List.of(0.1, 0.2), "person-1", 1_000, false)
        .written().get();
    String log = Topics.defaults().decided().name();
    List<ProducerRecord<String, byte[]>> logged = decisions.producer.history().stream()
        .filter(r -> r.topic().equals(log)).toList();
    assertEquals(2, logged.size());
    DecidedRequest perPerson = DpSerdes.decidedRequest().decodeOrThrow(logged.get(0).value());
    assertEquals("person-1", perPerson.getUserId());
    assertEquals("per-person", logged.get(0).key());
    assertNull(DpSerdes.decidedRequest().decodeOrThrow(logged.get(1).value()).getUserId(),
        "an event-level bandit's log carries no person");
  }
}
