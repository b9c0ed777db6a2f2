package org.dpstream.service.noise;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.dpstream.core.privacy.random.KeyCheck;
import org.dpstream.core.state.VersionedState;
import org.dpstream.service.routing.PlacedState;
import org.dpstream.service.contribution.ContributionCounts;
import org.dpstream.service.routing.Placement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One task's states as the instance's registries see them: which are refused (their records are rejected without
 * trying again; /ready names them; each logged once) and which key each stored state is bound to (the gauge). A
 * processor that owns states (models or bandits) starts it with its store and closes it with its task. Not
 * thread-safe: one per processor, on its stream thread.
 */
public final class TaskStates {

  private static final Logger LOG = LoggerFactory.getLogger(TaskStates.class);

  private final NoiseContext noise;
  private final String kind;
  private final int routingPartitions;
  private final Map<String, RefusedStateException> refused = new HashMap<>();
  private final Map<String, KeyCheck> bound = new HashMap<>();

  /**
   * @param kind what the ids name in messages: {@code "model"} or {@code "bandit"}
   * @param routingPartitions the routing's partition count, which places each stored state
   */
  public TaskStates(NoiseContext noise, String kind, int routingPartitions) {
    this.noise = noise;
    this.kind = kind;
    this.routingPartitions = routingPartitions;
  }

  /** How messages, /ready and the gauge name the state of {@code id}, e.g. {@code "model m"}. */
  public String what(String id) {
    return kind + " " + id;
  }

  /** The task (re)starts on {@code store}: no refusal yet, and every stored state counted by the key it names. */
  public void start(KeyValueStore<String, byte[]> store) {
    close();
    try (KeyValueIterator<String, byte[]> states = store.all()) {
      while (states.hasNext()) {
        KeyValue<String, byte[]> state = states.next();
        if (ContributionCounts.isCount(state.key)) {
          continue; // a person's count, not a state
        }
        try {
          Placement home = Placement.of(state.key, routingPartitions);
          VersionedState.peekKey(PlacedState.openStamped(state.key, home, state.value).state())
              .ifPresent(key -> bind(state.key, key));
        } catch (PlacedState.MisplacedStateException e) {
          // not resumed here, so not counted
        }
      }
    }
  }

  /** The refusal of {@code id}'s state in this task, or null. */
  public RefusedStateException refusal(String id) {
    return refused.get(id);
  }

  /** {@code id}'s state is refused: remembered for its next records, listed on /ready, logged once. */
  public void refuse(String id, RefusedStateException e) {
    refused.put(id, e);
    if (noise.refused().refuse(what(id), e)) {
      LOG.error("{} is stopped ({}): {}", what(id), e.reason(), e.getMessage());
    }
  }

  /**
   * {@code stored} (a serialized state after a stamp of {@code stampLength} bytes) was stored for {@code id}: counted
   * by its key.
   */
  public void written(String id, byte[] stored, int stampLength) {
    KeyCheck key = VersionedState.peekKey(stored, stampLength).orElse(null);
    // changes at the first step and where a retired key hands over to the primary
    if (key != null && !key.equals(bound.get(id))) {
      bind(id, key);
    }
  }

  private void bind(String id, KeyCheck key) {
    bound.put(id, key);
    noise.bound().bind(what(id), key);
  }

  /** The task closes: its refusals and counts leave the instance's registries. */
  public void close() {
    refused.keySet().forEach(id -> noise.refused().clear(what(id)));
    refused.clear();
    bound.keySet().forEach(id -> noise.bound().forget(what(id)));
    bound.clear();
  }
}
