package org.dpstream.service.bandit;

import java.util.List;
import org.dpstream.service.config.BanditRegistry;
import org.dpstream.service.contribution.ContributionCounts;
import org.dpstream.service.noise.RefusedStateException;
import org.dpstream.service.serde.RejectReason;
import org.dpstream.service.topology.PersonIds;

/**
 * What a request (a context to decide, or a decision a decider logged) must be before learning keeps it pending:
 * a request id, a valid caller, a finite context of the bandit's dimension, not decided before, not past its reward
 * deadline at the bandit's stream time, and at person level a person named. A request that passes comes with its
 * key, its context as a vector, the reward held for it if one came first, and its person's contributions so far.
 * The checks read the pending store and the contribution counts; they write nothing.
 */
final class RequestChecks {

  private final PendingRequests pendingRequests;
  private final ContributionCounts counts;

  RequestChecks(PendingRequests pendingRequests, ContributionCounts counts) {
    this.pendingRequests = pendingRequests;
    this.counts = counts;
  }

  /** The outcome of the checks. */
  sealed interface Outcome permits Accepted, Refused {}

  /**
   * A request fit to be kept: its key (caller, request id), its context as a vector, the reward that came before
   * it, if one did, and, for a person-level bandit, its person's contributions so far (null otherwise).
   */
  record Accepted(RequestKey request, double[] context, HeldReward heldReward, ContributionCounts.Contributor person)
      implements Outcome {}

  /** A request refused, with the rejection code and a message for dp.rejected. */
  record Refused(String reason, String message) implements Outcome {}

  /**
   * Checks a request of bandit {@code entry} that arrived at {@code timestamp}, the bandit's stream time being
   * {@code streamTime}.
   *
   * @param personId the request's person, or null if it names none
   * @throws RefusedStateException if the bandit's contribution counts were made under a key the ring no longer
   *     holds: the bandit must stop, as for a refused state
   */
  Outcome check(BanditRegistry.Entry entry, long streamTime, long timestamp, String callerName, String requestId,
      List<Double> values, String personId) {
    String banditId = entry.spec().banditId();
    if (requestId == null || requestId.isEmpty()) {
      return new Refused(BanditRejection.MISSING_REQUEST_ID.name(), "a decision request needs a request id");
    }
    RequestKey key;
    try {
      key = new RequestKey(Caller.ofRecord(callerName), requestId);
    } catch (IllegalArgumentException e) {
      return new Refused(BanditRejection.INVALID_CALLER.name(), e.getMessage());
    }
    int dimension = entry.spec().dimension();
    if (values.size() != dimension) {
      return new Refused(BanditRejection.WRONG_DIMENSION.name(),
          "bandit " + banditId + " has dimension " + dimension + ", the context " + values.size());
    }
    double[] x = new double[dimension];
    for (int j = 0; j < dimension; j++) {
      x[j] = values.get(j);
      if (!Double.isFinite(x[j])) { // the decoder refuses these already; kept as a guard
        return new Refused(RejectReason.NON_FINITE_NUMBER.name(), "context[" + j + "] is not finite");
      }
    }
    PendingRequests.Slot slot = pendingRequests.find(banditId, key);
    if (slot instanceof PendingRequests.Decided) {
      return new Refused(BanditRejection.DUPLICATE_REQUEST.name(),
          "request " + requestId + " was already decided by bandit " + banditId);
    }
    long deadline = PendingRequests.dueAfter(timestamp, entry.rewardTimeout());
    if (deadline <= streamTime) {
      // No reward can join it any more (expiry runs before a reward is handled), and the completion marker of its
      // request, had it been learnt already, may have been purged: a context decided again after the decider group
      // lost its offsets would be learnt a second time (imputed, or joined with a reward held meanwhile).
      return new Refused(BanditRejection.STALE_DECISION.name(), "request " + requestId + " of " + timestamp
          + " reached bandit " + banditId + " at stream time " + streamTime + ", past its reward deadline "
          + deadline + "; it is not learnt");
    }
    ContributionCounts.Contributor person = null;
    if (entry.unit().byUser()) {
      if (personId == null) {
        return new Refused(BanditRejection.MISSING_USER_ID.name(), "bandit " + banditId + " is person-level: a"
            + " request needs its person's id in " + PersonIds.where(entry.unit()) + "; it is not learnt");
      }
      person = counts.find(banditId, personId);
    }
    return new Accepted(key, x, slot instanceof PendingRequests.Held held ? held.reward() : null, person);
  }
}
