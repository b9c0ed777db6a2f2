package org.dpstream.service.bandit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.dpstream.bandit.Decision;
import org.dpstream.bandit.PrivateBandit;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.schemas.DecisionPhase;
import org.dpstream.schemas.DecisionResponse;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.service.config.BanditConfig;
import org.dpstream.service.config.BanditRegistry;

/**
 * What the bandit service must output for one bandit, computed without Kafka: the bandit's policy ({@link ServedBandit}) run
 * directly on the bandit's events in processing order, with the service's documented semantics
 * (stream time = largest timestamp so far, expiry of everything whose deadline has passed before an
 * event is handled, in (deadline, request id) order; completion markers kept until the purge time; a context whose
 * deadline the stream time has passed is refused).
 * Written independently of {@link BanditProcessor} so that the two can be compared.
 */
public final class BanditReference {

  /** One input event of the bandit: a context (x non-null) or a reward. */
  public record Event(long timestamp, String requestId, double[] context, double reward) {
    public static Event context(long timestamp, String requestId, double[] x) {
      return new Event(timestamp, requestId, x, Double.NaN);
    }

    public static Event reward(long timestamp, String requestId, double reward) {
      return new Event(timestamp, requestId, null, reward);
    }

    public boolean isContext() {
      return context != null;
    }
  }

  private record Pending(Decision decision, double[] context, long deadline, long purgeAt, int status) {}

  private static final int PENDING = 0;
  private static final int DONE = 1;

  private final BanditRegistry.Entry entry;
  private final ServedBandit served;
  private final PrivateBandit policy;
  private final Map<String, Pending> pending = new HashMap<>();
  private final TreeMap<String, String> due = new TreeMap<>();
  private final List<DecisionResponse> decisions = new ArrayList<>();
  private final List<ModelRelease> releases = new ArrayList<>();
  private long clock = Long.MIN_VALUE;
  private int expired;
  private int joined;

  public BanditReference(BanditRegistry.Entry entry, KeyedNoiseSource noise) {
    this.entry = entry;
    this.served = ServedBandit.start(entry.spec(), noise);
    this.policy = served.policy();
  }

  public static List<Object> run(BanditRegistry.Entry entry, KeyedNoiseSource noise, List<Event> events) {
    BanditReference reference = new BanditReference(entry, noise);
    events.forEach(reference::accept);
    return List.of(reference.decisions, reference.releases);
  }

  public void accept(Event event) {
    clock = Math.max(clock, event.timestamp());
    expireDue(event.timestamp());
    if (event.isContext()) {
      if (event.context().length != entry.spec().dimension() || pending.containsKey(event.requestId())) {
        return;
      }
      if (Math.max(0, event.timestamp()) + entry.rewardTimeout().toMillis() <= clock) {
        return; // stale: its reward deadline has passed in stream time, so it is refused, not learnt
      }
      Decision decision = policy.decide(event.context());
      decisions.add(DecisionResponse.newBuilder().setRequestId(event.requestId()).setArm(decision.arm())
          .setPhase(DecisionPhase.valueOf(decision.phase().name())).setModelStep(decision.round()).build());
      long timeout = entry.rewardTimeout().toMillis();
      long deadline = Math.max(0, event.timestamp()) + timeout;
      pending.put(event.requestId(), new Pending(decision, event.context(), deadline, deadline + timeout, PENDING));
      due.put(key(deadline, event.requestId()), event.requestId());
    } else {
      Pending p = pending.get(event.requestId());
      if (p == null || p.status() != PENDING) {
        return;
      }
      learn(p, event.reward(), event.timestamp());
      joined++;
      complete(event.requestId(), p);
    }
  }

  private void expireDue(long timestamp) {
    while (!due.isEmpty() && dueTime(due.firstKey()) <= Math.max(0, clock)) {
      String requestId = due.pollFirstEntry().getValue();
      Pending p = pending.get(requestId);
      if (p.status() == PENDING) {
        if (entry.missingReward() == BanditConfig.MissingReward.IMPUTE) {
          learn(p, entry.defaultReward(), timestamp);
        }
        expired++;
        complete(requestId, p);
      } else {
        pending.remove(requestId);
      }
    }
  }

  private void learn(Pending p, double reward, long timestamp) {
    policy.update(p.decision(), p.context(), reward);
    releases.addAll(served.releasesAfterRound(entry.releaseEvery()));
  }

  private void complete(String requestId, Pending p) {
    due.remove(key(p.deadline(), requestId));
    pending.put(requestId, new Pending(p.decision(), null, p.deadline(), p.purgeAt(), DONE));
    // A completion marker due at its purge time; entries due now are handled by the next event.
    due.put(key(p.purgeAt(), requestId), requestId);
  }

  private static String key(long time, String requestId) {
    return String.format(Locale.ROOT, "%016x", time) + '\u0000' + requestId;
  }

  private static long dueTime(String key) {
    return Long.parseUnsignedLong(key.substring(0, 16), 16);
  }

  public List<DecisionResponse> decisions() {
    return decisions;
  }

  public List<ModelRelease> releases() {
    return releases;
  }

  public PrivateBandit policy() {
    return policy;
  }

  public int expired() {
    return expired;
  }

  public int joined() {
    return joined;
  }
}
