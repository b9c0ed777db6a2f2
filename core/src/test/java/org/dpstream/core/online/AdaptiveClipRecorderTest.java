package org.dpstream.core.online;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.geometry.LpNorm;
import org.dpstream.core.geometry.NormClipper;
import org.dpstream.core.privacy.accounting.GaussianZcdpMap;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.recorder.Measurement;
import org.dpstream.core.privacy.recorder.RecordedBy;
import org.dpstream.core.privacy.recorder.SensitivityRecorder;

/**
 * Sensitivity recorder of adaptive clipping ({@link AdaptiveClipPrefixSums}): neighbouring streams of raw increments
 * (one replaced; norms from 0 to past +-Double.MAX_VALUE / 4, clipped as the estimator clips them to the live
 * block's threshold) under one key.
 *
 * <ul>
 *   <li>The histograms: the pooled noisy histogram moves by the change of the counts alone, at most sqrt(2) in l2
 *       (one count from one bin to another), the sensitivity sigma_h is calibrated to.
 *   <li>The blocks: the epoch's mechanism takes the leaf divided by its block's threshold; at the replaced step the
 *       release moves by the threshold times that leaf's change (the same noise, the same threshold: it depends on
 *       earlier blocks only), which must be within the unit plan's leaf sensitivity S. The rows of the unit plan
 *       are the tree's or the factorization's, recorded by their own recorders.
 * </ul>
 */
@RecordedBy(value = {AdaptiveClipPrefixSums.class, AdaptiveClipPlan.class},
    privateClasses = "org.dpstream.core.online.AdaptiveClipPlan$NominalCalibration")
class AdaptiveClipRecorderTest {

  private static final int DIMENSION = 3;
  private static final int HORIZON = 48;

  /** What a run leaves: the release and the threshold at the replaced step, and the pooled histogram at the end. */
  record Run(double[] releaseAtReplaced, double thresholdAtReplaced, double[] pooled) {}

  record Streams(List<double[]> increments, List<double[]> neighbour, int replaced) {}

  private static OnlineModelSpec spec() {
    OnlineTestData data = new OnlineTestData(DIMENSION, 2, 1, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(33));
    return data.spec("adaptive-recorder", 2, 1, 1, HORIZON, AccountantChoice.ZCDP)
        .withIncrementClipping(IncrementClipping.ADAPTIVE);
  }

  @Provide
  Arbitrary<Streams> streams() {
    Arbitrary<Double> scale = Arbitraries.of(0.0, 1e-6, 0.1, 0.5, 1.0, 3.0, 100.0, Double.MAX_VALUE / 4);
    Arbitrary<double[]> increment = Combinators.combine(
        Arbitraries.doubles().between(-1, 1).array(double[].class).ofSize(DIMENSION), scale).as((direction, s) -> {
          double[] out = new double[DIMENSION];
          for (int j = 0; j < DIMENSION; j++) {
            out[j] = direction[j] * s;
          }
          return out;
        });
    return Combinators.combine(increment.list().ofSize(HORIZON), increment,
        Arbitraries.integers().between(0, HORIZON - 1)).as((stream, other, at) -> {
          List<double[]> neighbour = new ArrayList<>(stream);
          neighbour.set(at, other);
          return new Streams(stream, neighbour, at);
        });
  }

  @Property(tries = 80, seed = "3041")
  void histogramsAndNormalisedLeavesMoveByAtMostTheirSensitivities(@ForAll("streams") Streams streams) {
    OnlineModelSpec spec = spec();
    AdaptiveClipPlan plan = AdaptiveClipPlan.of(spec);
    double leafSensitivity = ((GaussianZcdpMap) plan.epoch(0).plan().calibration()).l2Sensitivity();
    double histogramSensitivity = Math.nextUp(Math.sqrt(2)); // AdaptiveClipBudget's, sigma_h's
    SensitivityRecorder.of((List<double[]> increments, KeyedNoiseSource source) -> run(plan, increments,
            streams.replaced(), source),
        (Run a, Run b) -> {
          List<Measurement> measurements = new ArrayList<>();
          double histogram = SensitivityRecorder.l2Distance(a.pooled(), b.pooled());
          // each pooled bin is a sum of a few noisy counts: 4 ulps of the larger side per bin bound its rounding
          double histogramRounding = 0;
          for (int j = 0; j < a.pooled().length; j++) {
            histogramRounding += 4 * (Math.ulp(a.pooled()[j]) + Math.ulp(b.pooled()[j]));
          }
          measurements.add(new Measurement("pooled histogram, l2", histogram, histogramSensitivity,
              histogramRounding + SensitivityRecorder.l2DistanceRounding(a.pooled().length, histogram)));
          if (a.releaseAtReplaced() != null) {
            double threshold = a.thresholdAtReplaced();
            double leaf = SensitivityRecorder.l2Distance(a.releaseAtReplaced(), b.releaseAtReplaced()) / threshold;
            double rounding = 0;
            for (int j = 0; j < DIMENSION; j++) {
              rounding += 4 * (Math.ulp(a.releaseAtReplaced()[j]) + Math.ulp(b.releaseAtReplaced()[j]));
            }
            measurements.add(new Measurement("normalised leaf at the replaced step, l2", leaf, leafSensitivity,
                rounding / threshold + SensitivityRecorder.l2DistanceRounding(DIMENSION, leaf)));
          }
          return measurements;
        })
        .check(streams.increments(), streams.neighbour());
  }

  /** The estimator's use of the mechanism: warm-up norms, then each increment's norm and its clipped leaf. */
  private static Run run(AdaptiveClipPlan plan, List<double[]> increments, int replaced, KeyedNoiseSource source) {
    AdaptiveClipPrefixSums sums = AdaptiveClipPrefixSums.start(plan, source);
    double[] release = new double[DIMENSION];
    double[] atReplaced = null;
    double thresholdAtReplaced = Double.NaN;
    for (int t = 0; t < increments.size(); t++) {
      double[] increment = increments.get(t);
      double norm = LpNorm.L2.valueOf(increment);
      if (sums.warmingUp()) {
        sums.warmUp(norm);
        continue;
      }
      double threshold = sums.threshold();
      double[] leaf = new double[DIMENSION];
      NormClipper.of(LpNorm.L2, threshold).clip(increment, leaf);
      sums.recordNorm(norm);
      sums.addAndRelease(leaf, release);
      if (t == replaced) {
        atReplaced = release.clone();
        thresholdAtReplaced = threshold;
      }
    }
    return new Run(atReplaced, thresholdAtReplaced, sums.pooledHistogram());
  }
}
