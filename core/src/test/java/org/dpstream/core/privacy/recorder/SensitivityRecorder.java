package org.dpstream.core.privacy.recorder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.BiFunction;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseDraws;
import org.dpstream.core.privacy.testing.TestKeys;

/**
 * The grey-box sensitivity recorder (after Re:cord-play: run an implementation on neighbouring inputs with the same
 * randomness and compare). A mechanism is a function of its input and a keyed noise source, returning what it adds
 * noise to (its pre-noise values, or what they can be read from); the recorder runs it on two neighbours under one
 * key, each through a {@link NoiseDraws} record, and asserts
 *
 * <ol>
 *   <li>the draws are the same: count, order, stream and coordinate of every draw, and the number of values drawn
 *       from each (so no sampler's parameters depend on the data either), and
 *   <li>every {@link Measurement} of the change of the pre-noise values is within the declared sensitivity plus the
 *       rounding bound the mechanism's recorder test derives for it.
 * </ol>
 *
 * @param <I> the input: a dataset, a stream of samples or leaves
 * @param <O> what a run observes: pre-noise values, or releases under the same noise from which their change is read
 */
public final class SensitivityRecorder<I, O> {

  /** The measurements of the change between two runs' observations. */
  @FunctionalInterface
  public interface Sensitivity<O> {
    List<Measurement> measure(O input, O neighbour);
  }

  private static final KeyedNoiseSource KEY = new KeyedNoiseSource(TestKeys.seeded(30_001));

  private final BiFunction<I, KeyedNoiseSource, O> mechanism;
  private final Sensitivity<O> sensitivity;

  private SensitivityRecorder(BiFunction<I, KeyedNoiseSource, O> mechanism, Sensitivity<O> sensitivity) {
    this.mechanism = mechanism;
    this.sensitivity = sensitivity;
  }

  public static <I, O> SensitivityRecorder<I, O> of(BiFunction<I, KeyedNoiseSource, O> mechanism,
      Sensitivity<O> sensitivity) {
    return new SensitivityRecorder<>(mechanism, sensitivity);
  }

  /** One run of the mechanism and the draws it made. */
  public record Recording<O>(O observed, List<NoiseDraws.Draw> draws) {}

  /** Runs the mechanism once under the recorders' key, recording its draws. */
  public Recording<O> record(I input) {
    NoiseDraws draws = new NoiseDraws();
    O observed = mechanism.apply(input, draws.recording(KEY));
    return new Recording<>(observed, draws.draws());
  }

  /** Runs both neighbours under one key and asserts equal draws and every measurement within its bound. */
  public List<Measurement> check(I input, I neighbour) {
    Recording<O> a = record(input);
    Recording<O> b = record(neighbour);
    assertFalse(a.draws().isEmpty(), "the mechanism drew no noise at all: it is not the mechanism under test");
    assertEquals(a.draws(), b.draws(), "the noise draws depend on the data");
    List<Measurement> measurements = sensitivity.measure(a.observed(), b.observed());
    assertFalse(measurements.isEmpty(), "nothing measured");
    for (Measurement measurement : measurements) {
      assertTrue(measurement.holds(), () -> "sensitivity exceeded: " + measurement);
    }
    return measurements;
  }

  /**
   * For an input the mechanism's input path must refuse (a NaN or an infinity): asserts it is refused (an
   * IllegalArgumentException, or the lattices' ArithmeticException) before a single noise draw, so a refused input
   * leaves no trace in the noise either.
   */
  public void assertRefusedBeforeAnyDraw(I input) {
    NoiseDraws draws = new NoiseDraws();
    KeyedNoiseSource source = draws.recording(KEY);
    RuntimeException refusal = assertThrows(RuntimeException.class, () -> mechanism.apply(input, source),
        "input accepted");
    assertTrue(refusal instanceof IllegalArgumentException || refusal instanceof ArithmeticException,
        () -> "refused with " + refusal);
    assertEquals(List.of(), draws.draws(), "noise drawn for a refused input");
  }

  /** The l2 distance of two vectors. */
  public static double l2Distance(double[] a, double[] b) {
    double sum = 0;
    for (int i = 0; i < a.length; i++) {
      double difference = a[i] - b[i];
      sum += difference * difference;
    }
    return Math.sqrt(sum);
  }

  /**
   * A bound on the rounding error of {@link #l2Distance} in doubles for vectors of length d: every difference is
   * exact to half an ulp of itself, the d squares, their sum and the root add at most (d + 3) units of 2^-53
   * relative (Higham, "Accuracy and Stability of Numerical Algorithms", 2002, section 3.1), so 2 (d + 3) 2^-53
   * times the distance bounds them all.
   */
  public static double l2DistanceRounding(int length, double distance) {
    return 2.0 * (length + 3) * 0x1p-53 * distance;
  }
}
