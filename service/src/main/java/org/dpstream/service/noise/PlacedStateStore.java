package org.dpstream.service.noise;

import java.io.DataOutput;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.Supplier;
import org.apache.kafka.streams.state.KeyValueStore;
import org.dpstream.core.privacy.random.NoiseKeyRing;
import org.dpstream.core.state.StateBindingException;
import org.dpstream.service.release.NoiseGeneration;
import org.dpstream.service.routing.PlacedState;
import org.dpstream.service.routing.Placement;

/**
 * The placed states of one task's store (models' or bandits'), as the processor that owns them loads and writes
 * them: a stored state is opened where it was placed ({@link PlacedState}), admitted or refused against the key ring
 * and the published releases ({@link StateAdmission}), restored (or a new one started) under the noise of its
 * placement and generation, and written back stamped after every step. A record whose state is refused or
 * misplaced is rejected with the reason; a refusal is remembered for the id's next records ({@link TaskStates}).
 * Not thread-safe: one per processor, on its stream thread.
 */
public final class PlacedStateStore {

  /** The reason a record is rejected with when its id's stored state was created in another placement. */
  public static final String MISPLACED_STATE = "MISPLACED_STATE";

  private final NoiseContext noise;
  private final TaskStates states;
  private final StateBytes bytes = new StateBytes();
  private KeyValueStore<String, byte[]> store;

  /** How a live state (an estimator, a bandit policy) is restored, started and measured. */
  public interface Restorer<T> {
    /** The state {@code state} resumed under {@code keys}. */
    T restore(byte[] state, NoiseKeyRing keys) throws IOException;

    /** A new state, drawing from {@code keys}' primary key. */
    T start(NoiseKeyRing keys);

    /** The step {@code live} has reached, which must not be behind the published releases. */
    long step(T live);
  }

  /** What writes a live state's bytes. */
  @FunctionalInterface
  public interface StateWriter {
    void writeState(DataOutput out) throws IOException;
  }

  /** How a record of a refused or misplaced state is rejected. */
  @FunctionalInterface
  public interface Rejection {
    void reject(String reason, String message);
  }

  /** A loaded state and the noise generation it releases in. */
  public record Loaded<T>(T live, NoiseGeneration generation) {}

  /**
   * @param kind what the ids name in messages: {@code "model"} or {@code "bandit"}
   * @param routingPartitions the routing's partition count, which places each stored state
   */
  public PlacedStateStore(NoiseContext noise, String kind, int routingPartitions) {
    this.noise = noise;
    this.states = new TaskStates(noise, kind, routingPartitions);
  }

  /** The task (re)starts on {@code store}. */
  public void start(KeyValueStore<String, byte[]> store) {
    this.store = store;
    states.start(store);
  }

  /**
   * The live state of {@code id} from {@code load} (which may answer from a cache, or {@link #load}), or null once
   * {@code rejection} was given the reason: a refusal remembered from an earlier record, a state of another placement
   * ({@link #MISPLACED_STATE}) or a state refused now (remembered from here on).
   */
  public <T> T admit(String id, Supplier<T> load, Rejection rejection) {
    RefusedStateException earlier = states.refusal(id);
    if (earlier != null) {
      rejection.reject(earlier.reason().name(), earlier.getMessage());
      return null;
    }
    try {
      return load.get();
    } catch (PlacedState.MisplacedStateException e) {
      rejection.reject(MISPLACED_STATE, e.getMessage());
      return null;
    } catch (RefusedStateException e) {
      refuse(id, e);
      rejection.reject(e.reason().name(), e.getMessage());
      return null;
    }
  }

  /**
   * The state of {@code id} in this task, or a new one if it has none and may start one ({@link StateAdmission}); its
   * noise is scoped by its placement and noise generation, and drawn under the key its state is bound to.
   *
   * @param releaseKey the model id whose releases are the state's
   * @param configuredGeneration the noise generation its configuration names
   * @throws RefusedStateException if the state (or its absence) must stop {@code id}
   * @throws PlacedState.MisplacedStateException if the state was created in another placement
   */
  public <T> Loaded<T> load(String id, Placement home, String releaseKey, int configuredGeneration,
      Restorer<T> restorer) {
    byte[] stored = store.get(id);
    PlacedState.Opened opened = stored == null ? null : PlacedState.openStamped(id, home, stored);
    StateAdmission.Decision decision =
        StateAdmission.decide(states.what(id), releaseKey, configuredGeneration, opened, noise.published());
    NoiseKeyRing keys = home.noise(noise.keys(), decision.generation().generation());
    if (!(decision instanceof StateAdmission.Resume resume)) {
      return new Loaded<>(restorer.start(keys), decision.generation());
    }
    T live;
    try {
      live = restorer.restore(resume.state(), keys);
    } catch (StateBindingException e) {
      throw RefusedStateException.of(e);
    } catch (IOException e) {
      // A state this build cannot read (other version, other spec) must stop it loudly: starting over would
      // silently reset the accounting of a state whose earlier releases are public.
      throw new IllegalStateException("cannot resume " + states.what(id) + ": " + e.getMessage(), e);
    }
    StateAdmission.requireNotBehind(states.what(id), releaseKey, decision.generation(), restorer.step(live),
        noise.published());
    return new Loaded<>(live, decision.generation());
  }

  /** Writes {@code id}'s state, stamped with its placement and generation, after a step. */
  public void write(String id, Placement home, NoiseGeneration generation, StateWriter writer) {
    byte[] stored = bytes.stamped(home, generation.generation(), writer);
    store.put(id, stored);
    states.written(id, stored, PlacedState.stampLength(generation.generation()));
  }

  /** {@code id}'s state is refused (e.g. its persons' counts are): its records are rejected from here on. */
  public void refuse(String id, RefusedStateException e) {
    states.refuse(id, e);
  }

  /** The task closes: its refusals and key counts leave the instance's registries. */
  public void close() {
    states.close();
  }
}
