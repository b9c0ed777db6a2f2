package org.dpstream.service.bandit;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.dpstream.bandit.Decision;
import org.dpstream.core.privacy.random.NoiseKeyRing;
import org.dpstream.schemas.DecidedRequest;
import org.dpstream.schemas.DecisionRequest;
import org.dpstream.schemas.DecisionResponse;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.schemas.Reward;
import org.dpstream.service.config.BanditRegistry;
import org.dpstream.service.contribution.ContributionCounts;
import org.dpstream.service.metrics.BanditMetrics;
import org.dpstream.service.noise.NoiseContext;
import org.dpstream.service.noise.PlacedStateStore;
import org.dpstream.service.noise.RefusedStateException;
import org.dpstream.service.noise.StateRefusal;
import org.dpstream.service.routing.Placement;
import org.dpstream.service.routing.RoutedInput;
import org.dpstream.service.serde.DecodeResult;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.service.serde.SchemaSerde;
import org.dpstream.service.topology.PersonIds;
import org.dpstream.service.topology.ProcessingErrorGuard;
import org.dpstream.service.topology.Rejections;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one processor that owns every bandit of its task: it reads the bandits' contexts and rewards,
 * routed together by bandit id, decides, keeps each decision pending until its reward comes, joins
 * rewards into DP-HDB rounds, releases the arms' parameters, and expires decisions whose reward does
 * not come.
 *
 * <p><b>Stores</b> (all changelogged, so with exactly-once they commit with the outputs and offsets):
 * <ul>
 *   <li>{@value BanditTopology#STATE_STORE}: bandit id -&gt; DP-HDB state ({@link ServedBandit#writeState}),
 *       written after every round;
 *   <li>{@value BanditTopology#PENDING_STORE}: the request's key ({@link RequestKey}: the bandit, the caller and
 *       the request id) -&gt; {@link PendingRequest}:
 *       the decision and the user's context until the reward comes or the request expires, then a
 *       completion marker (no context) until its purge time, so a duplicate or late reward is rejected;
 *       with deciders, also a reward that came before its decision ({@link HeldReward}) until the decision comes
 *       or the reward timeout passes;
 *   <li>{@value BanditTopology#CLOCK_STORE}: bandit id -&gt; the bandit's stream time, the largest
 *       record timestamp of its contexts and rewards so far.
 * </ul>
 *
 * <p><b>Parts.</b> This class routes each record and forwards the outputs; the jobs are {@link RequestChecks} (what a
 * request must be to be kept), {@link Decisions} (the topology's answer; a logged decision checked), {@link
 * PendingRequests} (a decision kept, a reward's join), {@link Rounds} (a round joined or expired, its state and
 * releases), {@link HeldRewards} (a reward before its decision), {@link Deadlines} (the index of due times, in memory,
 * derived from the pending store, and its expiry), {@link
 * BanditClock} (the stream time), {@link LiveBandit} (a loaded bandit) and {@link PlacedStateStore} (the state
 * loaded, refused or written).
 *
 * <p><b>Persons</b> (a bandit of {@code privacyUnit: {by: user, maxContributions: k}}). A request's person is named
 * by the request (its {@code userId}, or the configured header; with deciders, as the decider read it onto the
 * decision log), never by its reward: the round is the request's (context, action) joined with a reward, and a
 * reward naming a person could move a round to someone else. A request accepted for learning counts one of its
 * person's k contributions ({@link ContributionCounts}, in {@value BanditTopology#STATE_STORE} beside the bandit's
 * state, in the same exactly-once transaction) when it is kept pending, so each accepted request makes at most one
 * round; the (k+1)-th is rejected ({@code CONTRIBUTION_LIMIT}) before it is kept, and its reward finds no request.
 *
 * <p><b>Expiry is part of processing, not a punctuator.</b> Before a bandit's record is handled, the
 * bandit's stream time advances to the record's timestamp and every request of that bandit whose
 * deadline ({@code context timestamp + rewardTimeout}) has passed is expired, in (deadline, request id)
 * order, with the configured policy. Kafka Streams runs stream-time punctuators after a batch of
 * records whose size depends on timing, so expiry done there would land at a timing-dependent place
 * in the sequence of rounds (and decide whether a reward near its deadline joins): a replay after a
 * crash could then learn differently from the run it replaces. Done here, the outputs are a function
 * of the bandit's record sequence alone. As with a stream-time punctuator, time advances only as the
 * bandit's records arrive: a bandit that receives nothing expires nothing.
 *
 * <p><b>Replay.</b> Decisions are a deterministic function of the state and the context; rounds draw
 * noise keyed by (arm, step). Live policies are cached in memory and the cache is dropped whenever
 * Streams (re)initialises or closes the task, as in the continual-release learner.
 *
 * <p><b>Failures.</b> A record whose processing throws goes to dp.rejected as {@code PROCESSING_ERROR}
 * ({@link ProcessingErrorGuard}) and its bandit is reloaded from the stores on its next record.
 *
 * <p><b>Refused states.</b> A bandit whose state is refused ({@link StateRefusal}: another noise key or law, a lost
 * state, a state behind its releases) is stopped loudly, as a model is: every record of it goes to dp.rejected with
 * the code (its original bytes kept), the stores keep what they hold, /ready names it and one line is logged.
 */
final class BanditProcessor implements Processor<String, byte[], String, Object> {

  private static final Logger LOG = LoggerFactory.getLogger(BanditProcessor.class);

  private final BanditRegistry bandits;
  private final BanditPolicies policies;
  private final int routingPartitions;
  private final NoiseContext noise;
  private final BanditMetrics metrics;
  private final PlacedStateStore placedStates;
  /** With deciders: a reward whose decision has not come yet is held (see {@link HeldReward}), not rejected. */
  private final boolean holdEarlyRewards;
  private final SchemaSerde<DecisionRequest> requests = DpSerdes.decisionRequest();
  private final SchemaSerde<Reward> rewards = DpSerdes.reward();
  private final SchemaSerde<DecidedRequest> decidedRequests = DpSerdes.decidedRequest();
  private final Map<String, LiveBandit> live = new HashMap<>();
  private ProcessorContext<String, Object> context;
  private KeyValueStore<String, byte[]> states;
  private PendingRequests pendingRequests;
  private HeldRewards heldRewards;
  private KeyValueStore<String, byte[]> pending;
  private KeyValueStore<String, Long> clocks;
  private ContributionCounts counts;
  private RequestChecks requestChecks;
  private Rounds rounds;

  /**
   * @param holdEarlyRewards whether a reward may come before its decision (deciders log their decisions while
   *     the rewards take another path) and is then held for up to the bandit's {@code rewardTimeout}
   * @param policies start and resume the bandits: {@link BanditPolicies#PRIVATE} in production
   */
  BanditProcessor(BanditRegistry bandits, int routingPartitions, NoiseContext noise, BanditMetrics metrics,
      boolean holdEarlyRewards, BanditPolicies policies) {
    this.policies = policies;
    this.bandits = bandits;
    this.routingPartitions = routingPartitions;
    this.noise = noise;
    this.metrics = metrics;
    this.holdEarlyRewards = holdEarlyRewards;
    this.placedStates = new PlacedStateStore(noise, "bandit", routingPartitions);
  }

  @Override
  public void init(ProcessorContext<String, Object> context) {
    this.context = context;
    this.states = context.getStateStore(BanditTopology.STATE_STORE);
    this.pending = context.getStateStore(BanditTopology.PENDING_STORE);
    this.pendingRequests = new PendingRequests(pending);
    this.heldRewards = new HeldRewards(pending);
    this.clocks = context.getStateStore(BanditTopology.CLOCK_STORE);
    this.counts = new ContributionCounts(states, noise.keys());
    this.requestChecks = new RequestChecks(pendingRequests, counts);
    // Releases are stamped with the service's clock: a round's own timestamp is its reward's or request's, the
    // producer's to set.
    this.rounds = new Rounds(placedStates, pendingRequests, metrics,
        (key, release) -> context.forward(new Record<String, Object>(key, release, context.currentSystemTimeMs())));
    // Every live bandit goes, and with it its deadline index: a bandit is loaded again, its index rebuilt from the
    // pending store, on its next record. Kafka Streams initialises a processor again after reviving its task from a
    // dirty close, with the stores restored to the last commit: an index kept from before would not match them.
    live.clear();
    placedStates.start(states);
  }

  @Override
  public void process(Record<String, byte[]> record) {
    ProcessingErrorGuard.run(() -> handle(record), message -> {
      String banditId = record.key();
      // A round that threw may have stepped some arms and not others, in memory only: the live bandit
      // is dropped and reloaded from its stores on its next record. The state store is written only
      // after a whole round, and the arms' releases only after that write, so the failed round
      // published nothing and its noise coordinates are still unpublished when the next round takes its
      // step index; and no later decision is made from parameters that were never released.
      if (banditId != null) {
        live.remove(banditId);
      }
      // Only a configured id is logged or tagged: an unknown key is the user's data.
      String known = banditId != null && bandits.find(banditId).isPresent() ? banditId : null;
      metrics.processingError(known);
      LOG.warn("bandit {}: a record at {} was rejected: {}", known == null ? "(unknown)" : known, position(), message);
      reject(record, known, BanditRejection.PROCESSING_ERROR.name(), message);
    });
  }

  private void handle(Record<String, byte[]> record) {
    String input = RoutedInput.input(record.headers()).orElse(BanditTopology.CONTEXTS_INPUT);
    String banditId = record.key();
    if (banditId == null || banditId.isBlank()) {
      reject(record, null, BanditRejection.MISSING_KEY.name(), "a bandit record's key must name its bandit");
      return;
    }
    BanditRegistry.Entry entry = bandits.find(banditId).orElse(null);
    if (entry == null) {
      reject(record, null, BanditRejection.UNKNOWN_BANDIT.name(), "no bandit '" + banditId + "' is configured");
      return;
    }
    // As for models: a bandit lives only in its home partition, its stored state only where it was created.
    Placement home = Placement.of(banditId, routingPartitions);
    int here = context.taskId().partition();
    if (home.partition() != here) {
      reject(record, banditId, BanditRejection.MISPLACED_RECORD.name(), "bandit " + banditId + " lives in " + home
          + "; this record arrived in routing partition " + here + ", which dpstream's routing never writes it to");
      return;
    }
    LiveBandit bandit = placedStates.admit(banditId, () -> live.computeIfAbsent(banditId, id -> load(entry, home)),
        (reason, message) -> reject(record, banditId, reason, message));
    if (bandit == null) {
      return;
    }
    advanceClock(banditId, bandit, record.timestamp());
    switch (input) {
      case BanditTopology.CONTEXTS_INPUT -> onContext(record, banditId, bandit);
      case BanditTopology.DECIDED_INPUT -> onDecided(record, banditId, bandit);
      default -> onReward(record, banditId, bandit);
    }
  }

  private void onContext(Record<String, byte[]> record, String banditId, LiveBandit bandit) {
    DecodeResult<DecisionRequest> decoded = requests.decode(record.value());
    if (decoded instanceof DecodeResult.Rejected<DecisionRequest> rejected) {
      reject(record, banditId, rejected.reason().name(), rejected.message());
      return;
    }
    DecisionRequest request = ((DecodeResult.Decoded<DecisionRequest>) decoded).value();
    RequestChecks.Accepted checked = checkedRequest(record, banditId, bandit, request.getCaller(), request.getRequestId(),
        request.getContext(), PersonIds.of(bandit.entry.unit(), request.getUserId(), record.headers()));
    if (checked == null) {
      return;
    }
    Decision decision = bandit.policy.decide(checked.context());
    context.forward(new Record<String, Object>(banditId, Decisions.response(request, decision), record.timestamp()));
    keepPendingWithinLimit(record, banditId, bandit, decision, checked);
  }

  /**
   * A decision a decider made from released parameters (the decision log): kept pending like the
   * topology's own, not sent to dp.decisions again (the decider did that). The decision must be one
   * this bandit's releases could have given: an arm of the bandit, a step it has reached.
   */
  private void onDecided(Record<String, byte[]> record, String banditId, LiveBandit bandit) {
    DecodeResult<DecidedRequest> decoded = decidedRequests.decode(record.value());
    if (decoded instanceof DecodeResult.Rejected<DecidedRequest> rejected) {
      reject(record, banditId, rejected.reason().name(), rejected.message());
      return;
    }
    DecidedRequest decided = ((DecodeResult.Decoded<DecidedRequest>) decoded).value();
    DecisionResponse response = decided.getDecision();
    RequestChecks.Accepted checked = checkedRequest(record, banditId, bandit, response.getCaller(), response.getRequestId(),
        decided.getContext(), decided.getUserId() == null || decided.getUserId().isBlank() ? null : decided.getUserId());
    if (checked == null) {
      return;
    }
    String invalid = Decisions.invalid(banditId, response, bandit.entry.spec().arms(), bandit.policy.rounds());
    if (invalid != null) {
      reject(record, banditId, BanditRejection.INVALID_DECISION.name(), invalid);
      return;
    }
    keepPendingWithinLimit(record, banditId, bandit, Decisions.logged(response), checked);
  }

  /**
   * The request's checks ({@link RequestChecks}): the accepted request, or null once the record was rejected; a
   * refused contribution count stops the bandit, as a refused state does.
   */
  private RequestChecks.Accepted checkedRequest(Record<String, byte[]> record, String banditId, LiveBandit bandit,
      String callerName, String requestId, List<Double> values, String personId) {
    RequestChecks.Outcome outcome;
    try {
      outcome = requestChecks.check(bandit.entry, bandit.clock.time(), record.timestamp(), callerName, requestId,
          values, personId);
    } catch (RefusedStateException e) {
      live.remove(banditId);
      placedStates.refuse(banditId, e);
      reject(record, banditId, e.reason().name(), e.getMessage());
      return null;
    }
    if (outcome instanceof RequestChecks.Refused refused) {
      reject(record, banditId, refused.reason(), refused.message());
      return null;
    }
    return (RequestChecks.Accepted) outcome;
  }

  /**
   * Keeps the request pending (or joins the reward that came first), counting one contribution of its person at
   * person level; a request whose person has none left is rejected, and so is the reward held for it.
   */
  private void keepPendingWithinLimit(Record<String, byte[]> record, String banditId, LiveBandit bandit, Decision decision,
      RequestChecks.Accepted checked) {
    ContributionCounts.Contributor person = checked.person();
    if (person != null) {
      int limit = bandit.entry.unit().maxContributions();
      if (person.count() >= limit) {
        String message = "the request's person has had the " + limit + " requests bandit " + banditId
            + " learns per person; it is not learnt";
        reject(record, banditId, BanditRejection.CONTRIBUTION_LIMIT.name(), message);
        HeldReward held = checked.heldReward();
        if (held != null) {
          heldRewards.drop(banditId, checked.request(), held, bandit.deadlines);
          rejectHeld(banditId, held, BanditRejection.CONTRIBUTION_LIMIT.name(), message);
        }
        return;
      }
      // Counted before the request is kept: a record that fails half-way can only over-count.
      counts.add(person);
    }
    keepPending(record, banditId, bandit, checked.request(), decision, checked);
  }

  /** The request's key in the bandit's stores, or null once the record was rejected for its caller. */
  private RequestKey requestKey(Record<String, byte[]> record, String banditId, String callerName, String requestId) {
    try {
      return new RequestKey(Caller.ofRecord(callerName), requestId);
    } catch (IllegalArgumentException e) {
      reject(record, banditId, BanditRejection.INVALID_CALLER.name(), e.getMessage());
      return null;
    }
  }

  /** Keeps the decision pending until its reward comes, or joins the reward that came first. */
  private void keepPending(Record<String, byte[]> record, String banditId, LiveBandit bandit, RequestKey request,
      Decision decision, RequestChecks.Accepted checked) {
    PendingRequest decided = PendingRequests.pending(decision, record.timestamp(), bandit.entry.rewardTimeout(),
        checked.context());
    HeldReward held = checked.heldReward();
    if (held != null) {
      // The decision replaces the held reward in the pending store, so its due time does in the index (removed
      // first: the two may be the same time).
      bandit.deadlines.remove(request, held.dueAt());
    }
    pendingRequests.keep(banditId, request, decided, bandit.deadlines);
    metrics.decided(banditId, decision, (System.currentTimeMillis() - record.timestamp()) * 1_000_000L);
    if (held != null) {
      // As if the reward had come right after its decision: the same checks, the same round.
      rounds.join(bandit, request, decided, held.reward(),
          (reason, message) -> rejectHeld(banditId, held, reason, message));
    }
  }

  private void onReward(Record<String, byte[]> record, String banditId, LiveBandit bandit) {
    DecodeResult<Reward> decoded = rewards.decode(record.value());
    if (decoded instanceof DecodeResult.Rejected<Reward> rejected) {
      reject(record, banditId, rejected.reason().name(), rejected.message());
      return;
    }
    Reward reward = ((DecodeResult.Decoded<Reward>) decoded).value();
    String requestId = reward.getRequestId();
    if (requestId == null || requestId.isEmpty()) {
      reject(record, banditId, BanditRejection.MISSING_REQUEST_ID.name(), "a reward needs a request id");
      return;
    }
    RequestKey request = requestKey(record, banditId, reward.getCaller(), requestId);
    if (request == null) {
      return;
    }
    PendingRequests.RewardMatch match = pendingRequests.match(banditId, request);
    if (match instanceof PendingRequests.Refused refused) {
      reject(record, banditId, refused.reason().name(), refused.message());
    } else if (match instanceof PendingRequests.Joins joins) {
      rounds.join(bandit, request, joins.request(), reward.getReward(),
          (reason, message) -> reject(record, banditId, reason, message));
    } else if (holdEarlyRewards) {
      hold(record, banditId, bandit, request, reward.getReward());
    } else {
      reject(record, banditId, BanditRejection.UNKNOWN_REQUEST.name(),
          "bandit " + banditId + " has no pending request " + requestId);
    }
  }

  /**
   * A reward whose decision has not come: kept until the bandit's stream time passes its timestamp plus the
   * reward timeout, with the rejection it gets if its decision never comes. A reward the bandit cannot learn
   * whatever its decision is refused now.
   */
  private void hold(Record<String, byte[]> record, String banditId, LiveBandit bandit, RequestKey request, double r) {
    try {
      bandit.entry.spec().requireReward(r);
    } catch (IllegalArgumentException e) {
      reject(record, banditId, BanditRejection.INVALID_REWARD.name(), e.getMessage());
      return;
    }
    heldRewards.hold(banditId, request, r, record.timestamp(), bandit.entry.rewardTimeout(),
        RoutedInput.rejectionKey(record.key(), record.headers()),
        rejection(record, BanditRejection.UNKNOWN_REQUEST.name(), noDecisionFor(banditId, bandit, request.requestId())),
        bandit.deadlines);
    metrics.rewardHeld(banditId);
  }

  private static String noDecisionFor(String banditId, LiveBandit bandit, String requestId) {
    return "bandit " + banditId + " had no decision for request " + requestId + " within the reward timeout ("
        + bandit.entry.rewardTimeout() + ") of its reward";
  }

  /** Rejects a held reward as the record it came in. */
  private void rejectHeld(String banditId, HeldReward held, String reason, String message) {
    metrics.rejected(banditId, reason);
    context.forward(heldRewards.rejection(held, reason, message));
  }

  /** Advances the bandit's stream time and handles everything due by then. */
  private void advanceClock(String banditId, LiveBandit bandit, long timestamp) {
    bandit.clock.advanceTo(timestamp);
    bandit.deadlines.expireDue(bandit.clock.time(), due -> expireDue(banditId, bandit, due));
  }

  /** A request due: a held reward rejected, a pending request expired, a completion marker purged. */
  private void expireDue(String banditId, LiveBandit bandit, Deadlines.Due due) {
    RequestKey request = due.request();
    PendingRequests.Slot slot = pendingRequests.find(banditId, request);
    if (slot instanceof PendingRequests.Held held) {
      rejectHeld(banditId, held.reward(), BanditRejection.UNKNOWN_REQUEST.name(),
          noDecisionFor(banditId, bandit, request.requestId()));
      bandit.deadlines.remove(due);
      pendingRequests.remove(banditId, request);
    } else if (slot instanceof PendingRequests.Decided decided
        && decided.request().status() == PendingRequest.Status.PENDING) {
      rounds.expire(bandit, request, decided.request());
    } else {
      bandit.deadlines.remove(due);
      if (slot instanceof PendingRequests.Decided) {
        pendingRequests.remove(banditId, request);
      }
    }
  }

  /**
   * The bandit's state in this task, or a new one if it has none and may start one ({@link PlacedStateStore#load}).
   *
   * @throws RefusedStateException if the state (or its absence) must stop the bandit
   */
  private LiveBandit load(BanditRegistry.Entry entry, Placement home) {
    String banditId = entry.spec().banditId();
    // Every arm is released at every release step, in one transaction: the first arm's releases are the bandit's.
    PlacedStateStore.Loaded<ServedBandit> loaded = placedStates.load(banditId, home, entry.armModelId(0),
        entry.noiseGeneration(), new PlacedStateStore.Restorer<>() {
          @Override
          public ServedBandit restore(byte[] state, NoiseKeyRing keys) throws IOException {
            return policies.restore(entry.spec(), state, keys);
          }

          @Override
          public ServedBandit start(NoiseKeyRing keys) {
            return policies.start(entry.spec(), keys.primary());
          }

          @Override
          public long step(ServedBandit served) {
            return served.step().getAsLong();
          }
        });
    return new LiveBandit(entry, home, loaded.live(), loaded.generation(), BanditClock.load(banditId, clocks),
        Deadlines.load(banditId, pending));
  }

  private void reject(Record<String, byte[]> record, String banditId, String reason, String message) {
    metrics.rejected(banditId, reason);
    context.forward(new Record<String, Object>(RoutedInput.rejectionKey(record.key(), record.headers()),
        rejection(record, reason, message), record.timestamp()));
  }

  /** The dp.rejected record of {@code record}: its original key and bytes, where it was read. */
  private RejectedRecord rejection(Record<String, byte[]> record, String reason, String message) {
    return Rejections.of(context, record.headers(), reason, message,
        RoutedInput.originalKey(record.key(), record.headers()), record.value());
  }

  private String position() {
    return context.recordMetadata().map(m -> m.topic() + "-" + m.partition() + "@" + m.offset()).orElse("?");
  }

  @Override
  public void close() {
    live.clear();
    placedStates.close();
  }
}
