package org.dpstream.service.bandit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.dpstream.bandit.Decision;
import org.dpstream.schemas.DecisionPhase;
import org.dpstream.schemas.DecisionRequest;
import org.dpstream.schemas.DecisionResponse;
import org.junit.jupiter.api.Test;

/** The topology's answer carries its decision and its request; a logged decision reads back as it was made. */
class DecisionsTest {

  private static DecisionRequest request() {
    DecisionRequest request = new DecisionRequest();
    request.setRequestId("r-7");
    request.setCaller("alice");
    request.setContext(List.of(0.5));
    return request;
  }

  @Test
  void theAnswerCarriesTheDecisionAndTheRequestItAnswers() {
    DecisionResponse response = Decisions.response(request(), new Decision(3, Decision.Phase.WARM_UP, 41));
    assertEquals("r-7", response.getRequestId());
    assertEquals("alice", response.getCaller());
    assertEquals(3, response.getArm());
    assertEquals(DecisionPhase.WARM_UP, response.getPhase());
    assertEquals(41, response.getModelStep());
    assertEquals(DecisionPhase.GREEDY,
        Decisions.response(request(), new Decision(0, Decision.Phase.GREEDY, 0)).getPhase());
  }

  @Test
  void aLoggedDecisionReadsBackAsItWasMade() {
    for (Decision.Phase phase : Decision.Phase.values()) {
      Decision made = new Decision(2, phase, 9);
      assertEquals(made, Decisions.logged(Decisions.response(request(), made)));
    }
  }

  @Test
  void aLoggedDecisionMustNameAnArmOfTheBanditAndAStepItHasReached() {
    int arms = 3;
    long rounds = 10;
    assertNull(Decisions.invalid("b", answer(0, 0), arms, rounds));
    assertNull(Decisions.invalid("b", answer(arms - 1, rounds), arms, rounds), "its newest step, its last arm");
    assertNotNull(Decisions.invalid("b", answer(arms, 5), arms, rounds));
    assertNotNull(Decisions.invalid("b", answer(-1, 5), arms, rounds));
    assertNotNull(Decisions.invalid("b", answer(1, rounds + 1), arms, rounds));
    assertEquals("bandit b has 3 arms and 10 rounds; the decision names arm 1 at step -1",
        Decisions.invalid("b", answer(1, -1), arms, rounds));
  }

  /** A logged answer as a decider may have written it (not made through {@link Decision}, which refuses some). */
  private static DecisionResponse answer(int arm, long step) {
    DecisionResponse answer = Decisions.response(request(), new Decision(0, Decision.Phase.GREEDY, 0));
    answer.setArm(arm);
    answer.setModelStep(step);
    return answer;
  }
}
