package org.dpstream.core.online;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.dpstream.core.privacy.random.KeyCheck;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKeyRing;
import org.dpstream.core.privacy.testing.TestKeys;
import org.dpstream.core.state.StateBindingException;
import org.dpstream.core.state.VersionedState;

/**
 * Whatever an operator does between steps (restarts, new primary keys, retired keys added or removed, the key a
 * state needs included) at whatever position in an epoch, no published value comes from two different draws of
 * one noise coordinate: every epoch is drawn under exactly one key, every release equals that of one run drawing
 * each epoch under its key, steps are published once each and consecutively, and a state is refused exactly when
 * the key it needs is not in the ring (and then neither resumed nor replaced).
 */
class KeyRotationPropertiesTest {

  private static final int HORIZON = 8;
  private static final int STEPS = 5 * HORIZON;
  private static final KeyedNoiseSource[] KEYS = {
    new KeyedNoiseSource(TestKeys.seeded(61)), new KeyedNoiseSource(TestKeys.seeded(62)),
    new KeyedNoiseSource(TestKeys.seeded(63)),
  };

  /** Between steps: take some steps, or restart with a ring (primary = KEYS[primary], retired = the mask's others). */
  record Action(int steps, boolean restart, int primary, int retiredMask) {}

  @Provide
  Arbitrary<List<Action>> actions() {
    Arbitrary<Action> action = Combinators.combine(Arbitraries.integers().between(1, HORIZON + 2),
        Arbitraries.of(true, false), Arbitraries.integers().between(0, KEYS.length - 1),
        Arbitraries.integers().between(0, (1 << KEYS.length) - 1)).as(Action::new);
    return action.list().ofMinSize(1).ofMaxSize(14);
  }

  @Provide
  Arbitrary<String> mechanisms() {
    return Arbitraries.of("tree-discrete", "tree-paper", "blt", "factorization", "adaptive-discrete", "pofw-continuous",
        "pofw-discrete");
  }

  @Property(tries = 150, seed = "4711")
  void noPublishedValueComesFromTwoDrawsOfOneCoordinate(@ForAll("mechanisms") String mechanism,
      @ForAll("actions") List<Action> actions) throws IOException {
    OnlineModelSpec spec = KeyRotationTest.spec(mechanism);
    ResumeRuns.Stream stream = KeyRotationTest.stream(spec, STEPS);
    Map<Integer, double[]> published = new TreeMap<>();
    Map<Long, KeyCheck> epochKeys = new HashMap<>();
    OnlineEstimator live = OnlineEstimators.start(spec, KEYS[0]);
    byte[] saved = ResumeRuns.state(live);
    boolean refused = false;
    for (Action action : actions) {
      if (action.restart()) {
        NoiseKeyRing ring = ring(action);
        KeyCheck needed = VersionedState.peekKey(saved).orElseThrow();
        try {
          live = OnlineEstimators.restore(spec, new DataInputStream(new ByteArrayInputStream(saved)), ring);
          refused = false;
        } catch (StateBindingException e) {
          refused = true;
          assertEquals(StateBindingException.Mismatch.NOISE_KEY, e.mismatch());
          assertEquals(needed, e.boundKey().orElseThrow());
        }
        assertEquals(refused, !holds(ring, needed), "refused exactly when the ring lacks the state's key");
        continue;
      }
      for (int i = 0; i < action.steps() && !refused && live.steps() < STEPS; i++) {
        int t = (int) live.steps();
        live.step(stream.xs()[t], stream.ys()[t]);
        // Exactly-once: the release and the state are committed together.
        assertFalse(published.containsKey(t + 1), "step " + (t + 1) + " published twice");
        published.put(t + 1, live.parameters());
        saved = ResumeRuns.state(live);
        KeyCheck key = VersionedState.peekKey(saved).orElseThrow();
        KeyCheck earlier = epochKeys.putIfAbsent(live.epoch(), key);
        assertTrue(earlier == null || earlier.equals(key), "epoch " + live.epoch() + " drawn under two keys");
      }
    }
    int step = 1;
    for (int s : published.keySet()) {
      assertEquals(step++, s, "releases are consecutive");
    }
    OnlineEstimator oracle = OnlineEstimators.start(spec, epochChain(epochKeys));
    for (Map.Entry<Integer, double[]> release : published.entrySet()) {
      int t = release.getKey() - 1;
      oracle.step(stream.xs()[t], stream.ys()[t]);
      assertArrayEquals(oracle.parameters(), release.getValue(), mechanism + ": step " + release.getKey());
    }
  }

  private static NoiseKeyRing ring(Action action) {
    List<KeyedNoiseSource> retired = new ArrayList<>();
    for (int k = 0; k < KEYS.length; k++) {
      if (k != action.primary() && (action.retiredMask() & (1 << k)) != 0) {
        retired.add(KEYS[k]);
      }
    }
    return NoiseKeyRing.of(KEYS[action.primary()], retired);
  }

  private static boolean holds(NoiseKeyRing ring, KeyCheck key) {
    return ring.primary().keyCheck().equals(key) || ring.isRetired(key);
  }

  /** One source drawing each epoch under the key the run drew it under (the last key for every later epoch). */
  private static KeyedNoiseSource epochChain(Map<Long, KeyCheck> epochKeys) {
    long last = epochKeys.keySet().stream().mapToLong(Long::longValue).max().orElse(0);
    KeyedNoiseSource chain = byCheck(epochKeys.getOrDefault(last, KEYS[0].keyCheck()));
    for (long epoch = last - 1; epoch >= 0; epoch--) {
      KeyCheck key = epochKeys.get(epoch);
      if (!key.equals(chain.keyCheck())) {
        chain = byCheck(key).handingOverAfter(epoch, chain); // a run of epochs under one key ends here
      }
    }
    return chain;
  }

  private static KeyedNoiseSource byCheck(KeyCheck check) {
    for (KeyedNoiseSource key : KEYS) {
      if (key.keyCheck().equals(check)) {
        return key;
      }
    }
    throw new AssertionError("no test key has check " + check);
  }
}
