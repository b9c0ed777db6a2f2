package org.dpstream.core.online;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.privacy.accounting.ExponentialMechanismCalibration;
import org.dpstream.core.privacy.accounting.ReportNoisyMaxCalibration;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.recorder.Measurement;
import org.dpstream.core.privacy.recorder.RecordedBy;
import org.dpstream.core.privacy.recorder.SensitivityRecorder;

/**
 * Sensitivity recorder of DP-POFW's vertex choice (the exponential mechanism, and Algorithm 2's Laplace
 * report-noisy-min): the utilities u(+-r e_j) = -+r d_j, d = (sum of earlier increments + g) / (k + 1), move between
 * neighbours by at most the calibration's Delta_k = D (beta D + L) / (k + 1). Given the past outputs the earlier
 * increments and the iterates are the same on both sides, so the change is r |Delta g_j| / (k + 1), g computed by
 * DP-POFW's own clipping ({@link ClippedIncrement}) at an arbitrary public state (iterates anywhere in the ball,
 * any step k) for samples from the declared bounds to +-Double.MAX_VALUE. The draws are those of whole DP-POFW runs
 * on the neighbouring streams.
 */
@RecordedBy({ExponentialMechanismCalibration.class, ReportNoisyMaxCalibration.class, DpPofw.class})
class PofwRecorderTest {

  private static final int DIMENSION = 3;
  private static final double RADIUS = 2;
  private static final int HORIZON = 8;

  /** A stream, its neighbour (one sample replaced) and the public state at which that sample is scored. */
  record Case(List<double[]> samples, List<double[]> neighbour, int replaced, double[] current, double[] previous,
      int step) {}

  private static OnlineModelSpec spec(AccountantChoice accountant) {
    OnlineTestData data = new OnlineTestData(DIMENSION, 1, RADIUS, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(32));
    return data.spec("pofw-recorder", 1, RADIUS, 1, HORIZON, accountant);
  }

  @Provide
  Arbitrary<Case> cases() {
    Arbitrary<Double> value = Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.doubles().between(-3, 3)),
        Tuple.of(1, Arbitraries.of(Double.MAX_VALUE, -Double.MAX_VALUE, 1.0, -1.0, 0.0)));
    // a sample is its features and, last, its label
    Arbitrary<double[]> sample = value.array(double[].class).ofSize(DIMENSION + 1);
    Arbitrary<double[]> point = Arbitraries.doubles().between(-0.6, 0.6)
        .array(double[].class).ofSize(DIMENSION);
    return Combinators.combine(sample.list().ofSize(HORIZON), sample, Arbitraries.integers().between(0, HORIZON - 1),
        point, point, Arbitraries.integers().between(1, HORIZON)).as((samples, other, at, current, previous, k) -> {
          List<double[]> neighbour = new ArrayList<>(samples);
          neighbour.set(at, other);
          return new Case(samples, neighbour, at, current, previous, k);
        });
  }

  @Property(tries = 100, seed = "3031")
  void exponentialMechanismUtilitiesMoveByAtMostDelta(@ForAll("cases") Case scenario) {
    record(spec(AccountantChoice.ZCDP), scenario);
  }

  @Property(tries = 100, seed = "3032")
  void reportNoisyMinUtilitiesMoveByAtMostDelta(@ForAll("cases") Case scenario) {
    record(spec(AccountantChoice.PAPER), scenario);
  }

  @Example
  void nonFiniteSamplesAreRefusedBeforeAnyDraw() {
    OnlineModelSpec spec = spec(AccountantChoice.ZCDP);
    SensitivityRecorder<double[], double[]> step = SensitivityRecorder.of((double[] sample, KeyedNoiseSource source) -> {
      DpPofw.start(spec, source).step(java.util.Arrays.copyOf(sample, DIMENSION), sample[DIMENSION]);
      return sample;
    }, (a, b) -> List.of());
    for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
      step.assertRefusedBeforeAnyDraw(new double[] {0, bad, 0, 1});
      step.assertRefusedBeforeAnyDraw(new double[] {0, 0, 0, bad});
    }
  }

  private static void record(OnlineModelSpec spec, Case scenario) {
    double declared = PofwUtilityChange.declared(spec, scenario.step());
    SensitivityRecorder.of(
            (List<double[]> stream, KeyedNoiseSource source) -> {
              DpPofw model = DpPofw.start(spec, source);
              for (double[] sample : stream) {
                model.step(java.util.Arrays.copyOf(sample, DIMENSION), sample[DIMENSION]);
              }
              return stream.get(scenario.replaced());
            },
            (double[] a, double[] b) -> {
              double measured = PofwUtilityChange.measured(spec, scenario.current(), scenario.previous(),
                  scenario.step(), a, b);
              return List.of(new Measurement("vertex utilities at step " + scenario.step() + ", l_inf", measured,
                  declared, PofwUtilityChange.rounding(measured)));
            })
        .check(scenario.samples(), scenario.neighbour());
  }
}
