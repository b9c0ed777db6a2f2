package org.dpstream.core.erm;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.dpstream.core.erm.privacy.GaussianCompositionCalibration;
import org.dpstream.core.erm.privacy.SubsampledGaussianCalibration;
import org.dpstream.core.loss.GlmLoss;
import org.dpstream.core.privacy.accounting.FixedCostCalibration;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.Rounding;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.recorder.Measurement;
import org.dpstream.core.privacy.recorder.RecordedBy;
import org.dpstream.core.privacy.recorder.SensitivityRecorder;

/**
 * Sensitivity recorders of batch ERM: neighbouring training files (one record replaced, features from the declared
 * bounds to +-Double.MAX_VALUE, clamped to the bounds as `train` clamps them) under one key. Output perturbation:
 * the released model moves by at most 2R / (n lambda). DP-SGD: its first noisy step, taken from arbitrary public
 * initial weights (so at an arbitrary state), moves the clipped gradient sum by at most 2C (the calibration's C for
 * add/remove, twice for the replace-one relation `train` states); the draws of the whole run (the Poisson
 * selections and the noise of every step) are the same.
 */
@RecordedBy({OutputPerturbation.class, GaussianCompositionCalibration.class, DpSgd.class,
    SubsampledGaussianCalibration.class, DpCd.class, DpSkgd.class, ObjectivePerturbation.class,
    FixedCostCalibration.class})
class ErmRecorderTest {

  private static final int RECORDS = 6;
  private static final FeatureBounds BOUNDS = FeatureBounds.of(1, 2);
  private static final PrivacyBudget BUDGET = new PrivacyBudget(1, 1e-6);
  /** The output-perturbation solver's stopping error, taken as at most 1e-9 per coordinate (it stops at 1e-12 moves). */
  private static final double SOLVER_ERROR = 1e-9;

  private static final FeatureBounds ONE_FEATURE = FeatureBounds.of(2);

  record Files(FeatureBounds bounds, double[][] features, double[] labels, double[][] neighbourFeatures,
      double[] neighbourLabels, double[] initialWeights) {
    ErmDataset data() {
      return ErmDataset.clampedToBounds(features, labels, bounds);
    }

    ErmDataset neighbour() {
      return ErmDataset.clampedToBounds(neighbourFeatures, neighbourLabels, bounds);
    }
  }

  private static Arbitrary<double[]> rawRecord(FeatureBounds bounds) {
    Arbitrary<Double> coordinate = Arbitraries.frequencyOf(
        Tuple.of(3, Arbitraries.doubles().between(-2, 2)),
        Tuple.of(2, Arbitraries.of(1.0, -1.0, 2.0, -2.0, 0.0)),
        Tuple.of(1, Arbitraries.of(Double.MAX_VALUE, -Double.MAX_VALUE, Double.MIN_VALUE)));
    return coordinate.array(double[].class).ofSize(bounds.dimension());
  }

  @Provide
  Arbitrary<Files> files() {
    return files(BOUNDS);
  }

  @Provide
  Arbitrary<Files> oneFeatureFiles() {
    return files(ONE_FEATURE);
  }

  private static Arbitrary<Files> files(FeatureBounds bounds) {
    Arbitrary<Double> label = Arbitraries.of(0.0, 1.0, 0.5);
    return Combinators.combine(rawRecord(bounds).array(double[][].class).ofSize(RECORDS),
        label.array(double[].class).ofSize(RECORDS), rawRecord(bounds), label, Arbitraries.integers().between(0,
            RECORDS - 1), Arbitraries.doubles().between(-3, 3).array(double[].class).ofSize(bounds.dimension()))
        .as((features, labels, replacement, replacementLabel, at, initial) -> {
          double[][] other = features.clone();
          double[] otherLabels = labels.clone();
          other[at] = replacement;
          otherLabels[at] = replacementLabel;
          return new Files(bounds, features, labels, other, otherLabels, initial);
        });
  }

  @Property(tries = 60, seed = "3021")
  void outputPerturbationMovesByAtMostTwoROverNLambda(@ForAll("files") Files files) {
    double lambda = 0.5;
    CompositeObjective objective = CompositeObjective.of(GlmLoss.logistic(), Regularizer.l2(lambda));
    double declared = Rounding.up(2 * StronglyConvexLogistic.normBound(files.data()) / (RECORDS * lambda));
    SensitivityRecorder.of(
            (ErmDataset data, KeyedNoiseSource source) -> new OutputPerturbation().train(
                ErmProblem.of(data, objective, BUDGET, 1, ErmOptions.defaults()), source, "recorder",
                PassListener.NONE).finalWeights(),
            (double[] a, double[] b) -> {
              double measured = SensitivityRecorder.l2Distance(a, b);
              double rounding = Math.sqrt(a.length) * (2 * SOLVER_ERROR + releaseError(a, b))
                  + SensitivityRecorder.l2DistanceRounding(a.length, measured);
              return List.of(new Measurement("released model, l2", measured, declared, rounding));
            })
        .check(files.data(), files.neighbour());
  }

  @Property(tries = 60, seed = "3022")
  void dpSgdMovesTheClippedSumByAtMostTwoC(@ForAll("files") Files files) {
    dpSgd(files);
  }

  /** Not hollow: a record at the bounds whose label flips moves its clipped gradient from C u to -C u, 2C. */
  @Example
  void aFlippedLabelAtTheBoundsReachesTwoC() {
    double[][] features = new double[RECORDS][];
    java.util.Arrays.fill(features, new double[] {1, 2});
    double[] labels = new double[RECORDS];
    double[] flipped = labels.clone();
    flipped[0] = 1;
    Measurement measured = dpSgd(new Files(BOUNDS, features, labels, features, flipped, new double[2])).get(0);
    assertTrue(measured.measured() > 2 * (1 - 1e-9), measured.toString());
  }

  private static List<Measurement> dpSgd(Files files) {
    double clip = 1;
    CompositeObjective objective = CompositeObjective.of(GlmLoss.logistic(), Regularizer.none());
    ErmOptions options = ErmOptions.defaults().withClipNorm(clip).withBatchRate(1)
        .withInitialWeights(files.initialWeights());
    double step = options.stepScale() / objective.globalSmoothness(BOUNDS);
    return SensitivityRecorder.of(
            (ErmDataset data, KeyedNoiseSource source) -> new DpSgd().train(
                ErmProblem.of(data, objective, BUDGET, 2, options), source, "recorder", PassListener.NONE)
                .passWeights(),
            (List<double[]> a, List<double[]> b) -> {
              // rate 1: one step per pass, w_1 = w_0 - step (G + noise) / n with the same noise on both sides
              double[] first = a.get(1);
              double[] other = b.get(1);
              double[] sumChange = new double[first.length];
              for (int j = 0; j < first.length; j++) {
                sumChange[j] = (other[j] - first[j]) * RECORDS / step;
              }
              double measured = Math.sqrt(sumChange[0] * sumChange[0] + sumChange[1] * sumChange[1]);
              // each w_1 is rounded in the noisy sum, the product, the quotient and the difference: 4 ulps of w_1
              // at most per side, blown up by n / step when read back as a change of the sum
              double rounding = Math.sqrt(first.length) * (RECORDS / step) * 2 * releaseError(first, other)
                  + SensitivityRecorder.l2DistanceRounding(first.length, measured);
              return List.of(new Measurement("clipped gradient sum of the first step, l2", measured,
                  2 * clip, rounding));
            })
        .check(files.data(), files.neighbour());
  }

  /**
   * DP-CD on one feature, one coordinate update per pass: the first update, from arbitrary public initial weights,
   * moves the clipped mean partial derivative by at most 2 C_j / n, the sensitivity its noise is calibrated to.
   */
  @Property(tries = 60, seed = "3023")
  void dpCdMovesTheClippedPartialByAtMostTwoCjOverN(@ForAll("oneFeatureFiles") Files files) {
    double clip = 1;
    CompositeObjective objective = CompositeObjective.of(GlmLoss.logistic(), Regularizer.none());
    ErmOptions options = ErmOptions.defaults().withClipNorm(clip).withInitialWeights(files.initialWeights());
    double[] steps = stepSizes(options, objective.coordinateSmoothness(ONE_FEATURE));
    double declared = 2 * DpCd.ClippingRule.UNIFORM.thresholds(clip, new double[1])[0] / RECORDS;
    recordFirstUpdate(new DpCd(DpCd.ClippingRule.UNIFORM), objective, options, steps, declared, files);
  }

  /**
   * DP-SkGD with one block of every coordinate (full-batch preconditioned gradient descent, one update per pass):
   * the first update moves the block's clipped mean gradient by at most 2 L_U / n in l2.
   */
  @Property(tries = 60, seed = "3024")
  void dpSkgdMovesTheBlockGradientByAtMostTwoLuOverN(@ForAll("files") Files files) {
    double clip = 1;
    CompositeObjective objective = CompositeObjective.of(GlmLoss.logistic(), Regularizer.none());
    ErmOptions options = ErmOptions.defaults().withClipNorm(clip).withBlockCount(1)
        .withInitialWeights(files.initialWeights());
    BlockPartition oneBlock = BlockPartition.contiguous(BOUNDS.dimension(), 1);
    double[] steps = stepSizes(options, objective.blockSmoothness(BOUNDS, oneBlock));
    double[] clips = DpCd.ClippingRule.SMOOTH.thresholds(clip, objective.coordinateSmoothness(BOUNDS));
    double lipschitz = DpSkgd.blockSensitivityBounds(oneBlock, BOUNDS, objective.residualBound(), clips)[0];
    recordFirstUpdate(new DpSkgd(DpSkgd.Sampling.UNIFORM), objective, options, steps, 2 * lipschitz / RECORDS,
        files);
  }

  private static double[] stepSizes(ErmOptions options, double[] smoothness) {
    double[] steps = new double[smoothness.length];
    for (int j = 0; j < steps.length; j++) {
      steps[j] = options.stepScale() / smoothness[j];
    }
    return steps;
  }

  /**
   * theta_1 = theta_0 - gamma_j (g_j + noise_j) with the same noise on both sides (no regulariser: the prox is the
   * identity), so the change of g is read from the first pass's model; rounding as for DP-SGD, per coordinate
   * blown up by 1 / gamma_j.
   */
  private static void recordFirstUpdate(ErmAlgorithm algorithm, CompositeObjective objective, ErmOptions options,
      double[] steps, double declared, Files files) {
    SensitivityRecorder.of(
            (ErmDataset data, KeyedNoiseSource source) -> algorithm.train(
                ErmProblem.of(data, objective, BUDGET, 2, options), source, "recorder", PassListener.NONE)
                .passWeights(),
            (List<double[]> a, List<double[]> b) -> {
              double[] first = a.get(1);
              double[] other = b.get(1);
              double squared = 0;
              double largestStep = 0;
              for (int j = 0; j < first.length; j++) {
                double change = (other[j] - first[j]) / steps[j];
                squared += change * change;
                largestStep = Math.max(largestStep, 1 / steps[j]);
              }
              double measured = Math.sqrt(squared);
              double rounding = Math.sqrt(first.length) * largestStep * 2 * releaseError(first, other)
                  + SensitivityRecorder.l2DistanceRounding(first.length, measured);
              return List.of(new Measurement(algorithm.name() + ": clipped gradient of the first update, l2",
                  measured, declared, rounding));
            })
        .check(files.data(), files.neighbour());
  }

  /** What objective perturbation's run leaves to measure: its data and its released minimiser. */
  record Solved(ErmDataset data, double[] weights) {}

  /**
   * Objective perturbation (CMS11 Algorithm 2): the noise b is a function of the output, b = -(n / R) grad J(w) of
   * the unperturbed objective, so what it hides is the gradient of the data's loss at the released w. Between
   * neighbours that moves by (1 / R) ||grad l(w; d) - grad l(w; d')|| at each side's output, at most 2 in the paper's
   * units (|l'| &lt;= 1, ||x|| &lt;= R), the bound Theorem 2's epsilon' is calibrated to. Rounding: a residual
   * and a product per coordinate, 2^-48 relative to the bound covers them.
   */
  @Property(tries = 60, seed = "3025")
  void objectivePerturbationsGradientAtTheOutputMovesByAtMostTwo(@ForAll("files") Files files) {
    CompositeObjective objective = CompositeObjective.of(GlmLoss.logistic(), Regularizer.l2(0.1));
    ErmDataset data = files.data();
    ErmDataset neighbour = files.neighbour();
    SensitivityRecorder.of(
            (ErmDataset input, KeyedNoiseSource source) -> new Solved(input, new ObjectivePerturbation().train(
                ErmProblem.of(input, objective, BUDGET, 1, ErmOptions.defaults()), source, "recorder",
                PassListener.NONE).finalWeights()),
            (Solved a, Solved b) -> List.of(
                lossGradientChange(objective, a.weights(), data, neighbour, "at the data's output"),
                lossGradientChange(objective, b.weights(), data, neighbour, "at the neighbour's output")))
        .check(data, neighbour);
  }

  private static Measurement lossGradientChange(CompositeObjective objective, double[] w, ErmDataset data,
      ErmDataset neighbour, String where) {
    double r = StronglyConvexLogistic.normBound(data);
    double[] change = new double[w.length];
    for (int i = 0; i < data.size(); i++) {
      double residual = objective.residual(data.margin(i, w), data.label(i));
      double other = objective.residual(neighbour.margin(i, w), neighbour.label(i));
      for (int j = 0; j < w.length; j++) {
        change[j] += (residual * data.rowView(i)[j] - other * neighbour.rowView(i)[j]) / r;
      }
    }
    double measured = SensitivityRecorder.l2Distance(change, new double[w.length]);
    return new Measurement("(1/R) change of the loss gradient " + where + ", l2", measured, 2, 2 * 0x1p-48);
  }

  /** The largest 2 (ulp(a_j) + ulp(b_j)): two roundings on each side of a released coordinate. */
  private static double releaseError(double[] a, double[] b) {
    double largest = 0;
    for (int j = 0; j < a.length; j++) {
      largest = Math.max(largest, 2 * (Math.ulp(a[j]) + Math.ulp(b[j])));
    }
    return largest;
  }

}
