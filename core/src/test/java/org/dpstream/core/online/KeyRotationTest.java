package org.dpstream.core.online;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.privacy.random.KeyCheck;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKeyRing;
import org.dpstream.core.privacy.testing.TestKeys;
import org.dpstream.core.state.StateBindingException;
import org.dpstream.core.state.VersionedState;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Key rotation of every mechanism of the online models: a state made under A and resumed with the ring {primary B,
 * retired A} in the middle of an epoch releases exactly what a run that never rotated releases up to the end of
 * that epoch, and from the next epoch on draws under B (what a run whose source hands over from A to B after that
 * epoch releases). Once past the boundary the state names B and resumes with A gone from the ring.
 */
class KeyRotationTest {

  static final KeyedNoiseSource A = new KeyedNoiseSource(TestKeys.seeded(51));
  static final KeyedNoiseSource B = new KeyedNoiseSource(TestKeys.seeded(52));
  static final int HORIZON = 16;

  static OnlineModelSpec spec(String mechanism) {
    double p = mechanism.startsWith("pofw") ? 1 : 1.5;
    OnlineTestData data = new OnlineTestData(3, p, 2, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(5));
    return switch (mechanism) {
      case "tree-discrete" -> data.spec(mechanism, p, 2, 1, HORIZON, AccountantChoice.ZCDP).withNoise(NoiseChoice.DISCRETE);
      case "tree-paper" -> data.spec(mechanism, p, 2, 1, HORIZON, AccountantChoice.PAPER);
      case "blt" -> data.spec(mechanism, p, 2, 1, HORIZON, AccountantChoice.BLT);
      case "factorization" -> data.spec(mechanism, p, 2, 1, HORIZON, AccountantChoice.FACTORIZATION);
      case "adaptive-discrete" -> data.spec(mechanism, p, 2, 1, HORIZON, AccountantChoice.ZCDP)
          .withIncrementClipping(IncrementClipping.ADAPTIVE).withNoise(NoiseChoice.DISCRETE);
      case "adaptive-auto" -> data.spec(mechanism, p, 2, 1, HORIZON, AccountantChoice.AUTO)
          .withIncrementClipping(IncrementClipping.ADAPTIVE);
      case "pofw-continuous" -> data.spec(mechanism, p, 2, 1, HORIZON, AccountantChoice.ZCDP);
      case "pofw-discrete" -> data.spec(mechanism, p, 2, 1, HORIZON, AccountantChoice.ZCDP).withNoise(NoiseChoice.DISCRETE);
      default -> throw new IllegalArgumentException(mechanism);
    };
  }

  static Stream<Arguments> mechanisms() {
    return Stream.of("tree-discrete", "tree-paper", "blt", "factorization", "adaptive-discrete", "adaptive-auto",
        "pofw-continuous", "pofw-discrete").map(Arguments::of);
  }

  static ResumeRuns.Stream stream(OnlineModelSpec spec, int steps) {
    OnlineTestData data = new OnlineTestData(3, spec.p(), 2, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(17));
    return ResumeRuns.draw(data, steps);
  }

  static OnlineEstimator restore(OnlineModelSpec spec, byte[] state, NoiseKeyRing keys) throws IOException {
    return OnlineEstimators.restore(spec, new DataInputStream(new ByteArrayInputStream(state)), keys);
  }

  static Optional<KeyCheck> boundKey(OnlineEstimator estimator) throws IOException {
    return VersionedState.peekKey(ResumeRuns.state(estimator));
  }

  @ParameterizedTest
  @MethodSource("mechanisms")
  void aStateResumedMidEpochUnderARetiredKeyKeepsItUntilTheBoundaryThenDrawsUnderThePrimary(String mechanism)
      throws IOException {
    OnlineModelSpec spec = spec(mechanism);
    int steps = 4 * HORIZON + 3;
    ResumeRuns.Stream stream = stream(spec, steps);
    double[][] unrotated = ResumeRuns.straightReleases(OnlineEstimators.start(spec, A), stream, s -> { });
    // The oracle: one run whose epochs 0 and 1 are drawn under A and every later one under B.
    double[][] handedOver = ResumeRuns.straightReleases(OnlineEstimators.start(spec, A.handingOverAfter(1, B)), stream,
        s -> { });

    int crash = HORIZON + HORIZON / 2; // in epoch 1
    OnlineEstimator first = OnlineEstimators.start(spec, A);
    ResumeRuns.stepThrough(first, stream, crash);
    NoiseKeyRing rotated = NoiseKeyRing.of(B, List.of(A));
    OnlineEstimator resumed = restore(spec, ResumeRuns.state(first), rotated);
    int boundary = 2 * HORIZON; // the last step of epoch 1
    boolean redrawn = false;
    byte[] pastBoundary = null;
    for (int t = crash; t < steps; t++) {
      resumed.step(stream.xs()[t], stream.ys()[t]);
      int step = t + 1;
      assertArrayEquals(handedOver[t], resumed.parameters(), mechanism + ": step " + step);
      if (step <= boundary) {
        assertArrayEquals(unrotated[t], resumed.parameters(), mechanism + ": step " + step + " is before the boundary");
        assertEquals(Optional.of(A.keyCheck()), boundKey(resumed), "step " + step);
      } else {
        redrawn |= !Arrays.equals(unrotated[t], resumed.parameters());
        assertEquals(Optional.of(B.keyCheck()), boundKey(resumed), "step " + step);
        if (step == boundary + 3) {
          pastBoundary = ResumeRuns.state(resumed);
        }
      }
    }
    assertTrue(redrawn, mechanism + ": the epochs after the boundary are drawn under the new key");

    // Past the boundary the state is B's: A can leave the ring, and the run continues bit for bit.
    OnlineEstimator withoutA = restore(spec, pastBoundary, NoiseKeyRing.of(B));
    for (int t = boundary + 3; t < steps; t++) {
      withoutA.step(stream.xs()[t], stream.ys()[t]);
      assertArrayEquals(handedOver[t], withoutA.parameters(), mechanism + ": without A, step " + (t + 1));
    }
  }

  @ParameterizedTest
  @MethodSource("mechanisms")
  void aStateBeforeItsBoundaryIsRefusedOnceItsKeyLeavesTheRing(String mechanism) throws IOException {
    OnlineModelSpec spec = spec(mechanism);
    ResumeRuns.Stream stream = stream(spec, HORIZON + 2);
    OnlineEstimator underA = OnlineEstimators.start(spec, A);
    ResumeRuns.stepThrough(underA, stream, HORIZON + 2);
    StateBindingException refused = assertThrows(StateBindingException.class,
        () -> restore(spec, ResumeRuns.state(underA), NoiseKeyRing.of(B)));
    assertEquals(StateBindingException.Mismatch.NOISE_KEY, refused.mismatch());
    assertEquals(Optional.of(A.keyCheck()), refused.boundKey());
  }
}
