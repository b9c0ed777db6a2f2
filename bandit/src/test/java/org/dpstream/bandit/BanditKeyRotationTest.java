package org.dpstream.bandit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpstream.bandit.hdb.DpHdbPolicy;
import org.dpstream.bandit.hdb.DpHdbSpec;
import org.dpstream.bandit.hdb.TestRandomness;
import org.dpstream.bandit.linear.DpLinearPolicy;
import org.dpstream.bandit.linear.DpLinearSpec;
import org.dpstream.core.loss.CanonicalLink;
import org.dpstream.core.loss.DataBounds;
import org.dpstream.core.online.AccountantChoice;
import org.dpstream.core.online.NoiseChoice;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.random.KeyCheck;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKeyRing;
import org.dpstream.core.state.StateBindingException;
import org.dpstream.core.state.VersionedState;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Key rotation of the bandits: a state made under A and resumed with {primary B, retired A} mid-epoch learns and
 * releases exactly what it would have under A until its arms' (or statistics') epoch ends, then draws under B; its
 * state names B from then on and resumes with A gone. Under B alone the A state is refused, naming the bandit.
 */
class BanditKeyRotationTest {

  private static final KeyedNoiseSource A = TestRandomness.source(101);
  private static final KeyedNoiseSource B = TestRandomness.source(102);
  private static final int D = 3;

  /** A policy under test: how to start and restore it, and the first round of its second epoch. */
  private record Policy(String name, int boundary, Starter start, Restorer restore) {}

  @FunctionalInterface
  private interface Starter {
    PrivateBandit start(KeyedNoiseSource source);
  }

  @FunctionalInterface
  private interface Restorer {
    PrivateBandit restore(byte[] state, NoiseKeyRing keys) throws IOException;
  }

  private static Policy policy(String name) {
    if (name.equals("dp-hdb")) {
      DpHdbSpec spec = new DpHdbSpec("rotating", D, 2, CanonicalLink.IDENTITY, 1, 0.4, 3, new PrivacyBudget(1, 1e-5),
          24, new DataBounds(1, 1), NoiseChoice.DISCRETE);
      return new Policy(name, 25, source -> DpHdbPolicy.start(spec, source), // the arms' 25th step
          (state, keys) -> DpHdbPolicy.restore(spec, in(state), keys));
    }
    DpLinearSpec spec = new DpLinearSpec("rotating", D, 2, 1, 1, new PrivacyBudget(1, 1e-5), 24, 3,
        AccountantChoice.ZCDP, NoiseChoice.DISCRETE);
    // Statistics are released every 3 rounds, 8 per epoch: the 9th release, at round 27, opens the second epoch.
    return new Policy(name, (int) (3 * spec.releasesPerEpoch() + 3), source -> DpLinearPolicy.start(spec, source),
        (state, keys) -> DpLinearPolicy.restore(spec, in(state), keys));
  }

  private static DataInputStream in(byte[] state) {
    return new DataInputStream(new ByteArrayInputStream(state));
  }

  private static byte[] state(PrivateBandit bandit) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    bandit.writeState(new DataOutputStream(bytes));
    return bytes.toByteArray();
  }

  /** Contexts and rewards drawn up front, so every run sees the same. */
  private record Rounds(double[][] contexts, double[] rewards) {
    static Rounds draw(int count) {
      UniformRandomProvider rng = TestRandomness.bits(103);
      double[][] contexts = new double[count][D];
      double[] rewards = new double[count];
      for (int t = 0; t < count; t++) {
        for (int j = 0; j < D; j++) {
          contexts[t][j] = rng.nextDouble() * 2 - 1;
        }
        rewards[t] = rng.nextDouble();
      }
      return new Rounds(contexts, rewards);
    }
  }

  /** Plays rounds [from, to) and returns the arms' parameters after each, every arm's concatenated. */
  private static List<double[]> play(PrivateBandit bandit, Rounds rounds, int from, int to) {
    List<double[]> released = new ArrayList<>();
    for (int t = from; t < to; t++) {
      double[] x = rounds.contexts()[t];
      bandit.update(bandit.decide(x), x, rounds.rewards()[t]);
      released.add(parameters(bandit));
    }
    return released;
  }

  private static double[] parameters(PrivateBandit bandit) {
    double[][] arms = new double[bandit.arms()][];
    for (int arm = 0; arm < bandit.arms(); arm++) {
      arms[arm] = bandit instanceof DpHdbPolicy hdb ? hdb.armParameters(arm) : ((DpLinearPolicy) bandit).armParameters(arm);
    }
    return Arrays.stream(arms).flatMapToDouble(Arrays::stream).toArray();
  }

  private static Optional<KeyCheck> boundKey(PrivateBandit bandit) throws IOException {
    return VersionedState.peekKey(state(bandit));
  }

  @ParameterizedTest
  @ValueSource(strings = {"dp-hdb", "dp-linear"})
  void aBanditResumedUnderARetiredKeyKeepsItUntilItsEpochEndsThenDrawsUnderThePrimary(String name) throws IOException {
    Policy policy = policy(name);
    int boundary = policy.boundary();
    int total = 2 * boundary;
    Rounds rounds = Rounds.draw(total);
    List<double[]> unrotated = play(policy.start().start(A), rounds, 0, total);
    PrivateBandit first = policy.start().start(A);
    int crash = boundary / 2;
    play(first, rounds, 0, crash);
    byte[] saved = state(first);

    StateBindingException refused = assertThrows(StateBindingException.class,
        () -> policy.restore().restore(saved, NoiseKeyRing.of(B)));
    assertEquals(StateBindingException.Mismatch.NOISE_KEY, refused.mismatch());
    assertTrue(refused.getMessage().contains("bandit rotating") && refused.getMessage().contains(A.keyCheck().hex()),
        refused.getMessage());

    PrivateBandit resumed = policy.restore().restore(saved, NoiseKeyRing.of(B, List.of(A)));
    boolean redrawn = false;
    byte[] pastBoundary = null;
    List<double[]> continued = new ArrayList<>();
    for (int t = crash; t < total; t++) {
      double[] released = play(resumed, rounds, t, t + 1).get(0);
      continued.add(released);
      if (t + 1 < boundary) {
        assertArrayEquals(unrotated.get(t), released, name + ": round " + (t + 1) + " is before the boundary");
        assertEquals(Optional.of(A.keyCheck()), boundKey(resumed));
      } else {
        redrawn |= !Arrays.equals(unrotated.get(t), released);
        assertEquals(Optional.of(B.keyCheck()), boundKey(resumed), "round " + (t + 1));
        if (t + 1 == boundary + 1) {
          pastBoundary = state(resumed);
        }
      }
    }
    assertTrue(redrawn, name + ": the epoch after the boundary is drawn under the new key");
    PrivateBandit withoutA = policy.restore().restore(pastBoundary, NoiseKeyRing.of(B));
    List<double[]> again = play(withoutA, rounds, boundary + 1, total);
    for (int i = 0; i < again.size(); i++) {
      assertArrayEquals(continued.get(boundary + 1 - crash + i), again.get(i),
          name + ": without A, round " + (boundary + 2 + i));
    }
  }
}
