package org.dpstream.service.bandit;

import org.dpstream.bandit.Decision;
import org.dpstream.schemas.DecisionPhase;
import org.dpstream.schemas.DecisionRequest;
import org.dpstream.schemas.DecisionResponse;

/**
 * Decisions on the wire: the answer the topology sends to dp.decisions for a decision it made (deciding in the
 * topology), and a decider's logged decision read back (deciding by deciders), which must be one the bandit's
 * releases could have given.
 */
final class Decisions {

  private Decisions() {}

  /** The answer to {@code request}: its request id and caller, the arm, the phase and the step decided at. */
  static DecisionResponse response(DecisionRequest request, Decision decision) {
    return DecisionResponse.newBuilder()
        .setRequestId(request.getRequestId())
        .setArm(decision.arm())
        .setPhase(decision.phase() == Decision.Phase.WARM_UP ? DecisionPhase.WARM_UP : DecisionPhase.GREEDY)
        .setModelStep(decision.round())
        .setCaller(request.getCaller())
        .build();
  }

  /**
   * Why a logged decision is not one a bandit of {@code arms} arms at {@code rounds} rounds could have given (an arm
   * it has not, a step it has not reached), or null if it could.
   */
  static String invalid(String banditId, DecisionResponse logged, int arms, long rounds) {
    if (logged.getArm() < 0 || logged.getArm() >= arms || logged.getModelStep() < 0
        || logged.getModelStep() > rounds) {
      return "bandit " + banditId + " has " + arms + " arms and " + rounds + " rounds; the decision names arm "
          + logged.getArm() + " at step " + logged.getModelStep();
    }
    return null;
  }

  /** The decision a logged answer carries. */
  static Decision logged(DecisionResponse logged) {
    return new Decision(logged.getArm(),
        logged.getPhase() == DecisionPhase.WARM_UP ? Decision.Phase.WARM_UP : Decision.Phase.GREEDY,
        logged.getModelStep());
  }
}
