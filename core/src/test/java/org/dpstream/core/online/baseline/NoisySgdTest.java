package org.dpstream.core.online.baseline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.geometry.LpBall;
import org.dpstream.core.loss.DataBounds;
import org.dpstream.core.loss.GlmLoss;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;

class NoisySgdTest {

  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(2020));
  private static final double INF = Double.POSITIVE_INFINITY;

  private static UniformRandomProvider rng(long seed) {
    return RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
  }

  /** n samples in R^4 with ||x||_1 &lt;= 1, |y| &lt;= 1, squared loss on the cube of radius 1. */
  /**
   * The step size is D / (L n) min(4 / sqrt(n), eps / sqrt(d ln(1/delta))): with many samples the first term is the
   * smaller one (here 4 / 100 against 1 / sqrt(4 ln 10^4) = 0.16).
   */
  @Test
  void withManySamplesTheStepSizeFollowsTheSampleTerm() {
    NoisySgdCalibration calibration = NoisySgdCalibration.of(handProblem(10_000, 1, 1e-4), 1.0);
    double expected = calibration.euclideanDiameter() / (calibration.euclideanLipschitz() * 10_000) * (4 / 100.0);
    assertEquals(expected, calibration.stepSize(), 1e-15 * expected);
  }

  @Test
  void twoSamplesAreTheSmallestProblem() {
    assertEquals(2, NoisySgdCalibration.of(handProblem(2, 1, 1e-4), 1.0).samples());
    assertThrows(IllegalArgumentException.class, () -> NoisySgdCalibration.of(handProblem(1, 1, 1e-4), 1.0));
  }

  private static BatchProblem handProblem(int n, double epsilon, double delta) {
    UniformRandomProvider rng = rng(n);
    double[][] features = new double[n][4];
    double[] labels = new double[n];
    for (int i = 0; i < n; i++) {
      for (int k = 0; k < 4; k++) {
        features[i][k] = (rng.nextDouble() - 0.5) / 2; // ||x||_1 <= 1
      }
      labels[i] = 2 * rng.nextDouble() - 1;
    }
    return new BatchProblem(features, labels, GlmLoss.squared(), LpBall.of(INF, 1), new PrivacyBudget(epsilon, delta),
        new DataBounds(1, 1));
  }

  /**
   * By hand, n = 100, d = 4, p = inf (q = 1), epsilon = 1, delta = e^-2 (ln(1/delta) = 2): L = (X r + Y) X
   * = 2 and, since q &lt;= 2, L_2 = L = 2; D_2 = 2 r sqrt(d) = 4; T = n^2 = 10^4; m = max(1, floor(100
   * sqrt(1 / 40000))) = max(1, floor(0.5)) = 1;
   * sigma = sqrt(8 T ln(1/delta)) L_2 / (n epsilon) = sqrt(160000) * 2 / 100 = 8;
   * eta = D_2 / (L_2 n) min{4 / sqrt(n), epsilon / sqrt(d ln(1/delta))} = (4 / 200) min{0.4, 1/sqrt(8)}
   * = 0.02 * 0.35355339059327373 = 0.0070710678118654745.
   */
  @Test
  void calibrationMatchesTheHandComputation() {
    NoisySgdCalibration calibration = NoisySgdCalibration.of(handProblem(100, 1, Math.exp(-2)), 1.0);
    assertEquals(10_000L, calibration.iterations());
    assertEquals(1, calibration.batchSize());
    assertEquals(4.0, calibration.euclideanDiameter(), 4 * 1e-11); // sqrt(d) rounded up
    assertEquals(8.0, calibration.sigma(), 8 * 1e-11);
    assertTrue(calibration.sigma() >= 8.0, "rounded up");
    assertEquals(0.0070710678118654745, calibration.stepSize(), 0.0071 * 1e-11); // D_2, L_2 widened
  }

  @Test
  void noiseShrinksAsEpsilonGrows() {
    NoisySgdCalibration half = NoisySgdCalibration.of(handProblem(100, 0.5, Math.exp(-2)), 1.0);
    NoisySgdCalibration one = NoisySgdCalibration.of(handProblem(100, 1, Math.exp(-2)), 1.0);
    assertEquals(16.0, half.sigma(), 16 * 1e-11);
    assertEquals(2.0, half.sigma() / one.sigma(), 1e-12);
  }

  /**
   * With T = n^2, sigma = sqrt(8 n^2 ln(1/delta)) L / (n epsilon) = L sqrt(8 ln(1/delta)) / epsilon does not
   * depend on n at a fixed delta; the per-sample influence shrinks through the step size eta ~ 1/n^(3/2)
   * and the n^2-term average instead. At the paper's delta = 1/n, sigma grows like sqrt(ln n): from n = 400
   * to n = 100 it shrinks by sqrt(ln 100 / ln 400) = sqrt(4.60517 / 5.99146) = 0.87671..., while eta grows.
   */
  @Test
  void noiseFollowsItsFormulaInN() {
    NoisySgdCalibration small = NoisySgdCalibration.of(handProblem(100, 1, 1e-4), 1.0);
    NoisySgdCalibration large = NoisySgdCalibration.of(handProblem(400, 1, 1e-4), 1.0);
    assertEquals(1.0, small.sigma() / large.sigma(), 1e-12);
    assertTrue(small.stepSize() > large.stepSize());

    NoisySgdCalibration smallPaper = NoisySgdCalibration.of(handProblem(100, 1, 1.0 / 100), 1.0);
    NoisySgdCalibration largePaper = NoisySgdCalibration.of(handProblem(400, 1, 1.0 / 400), 1.0);
    double expected = Math.sqrt(Math.log(100) / Math.log(400));
    assertEquals(expected, smallPaper.sigma() / largePaper.sigma(), 1e-12);
    assertEquals(0.87671, expected, 1e-5);
  }

  /** For p &lt; 2 the l_2 norm of a gradient can exceed its l_q norm by d^(1/2 - 1/q); L_2 includes it. */
  @Test
  void euclideanConstantsOfOtherBalls() {
    RegressionData data = new RegressionData(16, 1.5, 2, 0.05); // q = 3
    NoisySgdCalibration calibration =
        NoisySgdCalibration.of(data.problem(50, new PrivacyBudget(1, 1e-3), rng(1)), 1.0);
    double expectedScale = Math.pow(16, 0.5 - 1.0 / 3);
    // Up to the floating-point widening of the clip bound (about 3e-12 relative, upwards).
    assertEquals(expectedScale, calibration.euclideanLipschitz() / calibration.lipschitz(), 1e-11);
    assertTrue(calibration.euclideanLipschitz() >= expectedScale * calibration.lipschitz());
    assertEquals(4.0, calibration.euclideanDiameter(), 1e-15, "l_2 diameter of the l_1.5 ball is its l_1.5 diameter");
  }

  @Test
  void resultLiesInTheDomain() {
    for (double p : new double[] {INF, 2, 1}) {
      RegressionData data = new RegressionData(5, p, 2, 0.05);
      BatchProblem problem = data.problem(100, new PrivacyBudget(1, 1e-2), rng(5));
      for (double scale : new double[] {1, 1000}) {
        double[] theta = NoisySgd.train(problem, SOURCE, "domain-" + p + "-" + scale, scale);
        assertTrue(problem.domain().contains(theta), "p = " + p + ": " + Arrays.toString(theta));
      }
    }
  }

  /** Noise off (the large-budget limit; epsilon &gt; 1 is rejected): the optimiser alone converges. */
  @Test
  void withoutNoiseItConvergesOnLinearRegression() {
    RegressionData data = new RegressionData(5, INF, 2, 0.05);
    BatchProblem problem = data.problem(1000, new PrivacyBudget(1, 1e-3), rng(13));
    NoisySgdCalibration calibration = NoisySgdCalibration.of(problem, 1.0).withoutNoise();
    double[] theta = NoisySgd.run(problem, calibration, SOURCE.forStream(NoisySgd.NOISE_PURPOSE, "noiseless"));
    double relativeExcess = data.relativeExcessRisk(theta);
    assertTrue(relativeExcess < 0.02, "relative excess risk " + relativeExcess);
  }

  /** At the paper's budget (1, 1/n) the private run still improves clearly on theta = 0. */
  @Test
  void atThePapersBudgetItImprovesOnTheOrigin() {
    RegressionData data = new RegressionData(5, INF, 2, 0.05);
    BatchProblem problem = data.problem(2000, new PrivacyBudget(1, 1.0 / 2000), rng(17));
    double relativeExcess = data.relativeExcessRisk(NoisySgd.train(problem, SOURCE, "paper-budget"));
    assertTrue(relativeExcess < 0.5, "relative excess risk " + relativeExcess);
  }

  @Test
  void sameKeyAndRunIdReproduceTheRunAndAnotherRunIdDoesNot() {
    RegressionData data = new RegressionData(5, INF, 2, 0.05);
    BatchProblem problem = data.problem(300, new PrivacyBudget(1, 1e-3), rng(3));
    double[] first = NoisySgd.train(problem, SOURCE, "run-a");
    double[] again = NoisySgd.train(problem, new KeyedNoiseSource(TestKeys.seeded(2020)), "run-a");
    double[] other = NoisySgd.train(problem, SOURCE, "run-b");
    assertArrayEquals(first, again, 0);
    assertFalse(Arrays.equals(first, other));
  }

  @Test
  void rejectsBudgetsOutsideTheProvedRangeAndBadScales() {
    assertThrows(IllegalArgumentException.class, () -> NoisySgd.train(handProblem(100, 2, 1e-3), SOURCE, "x"));
    assertThrows(IllegalArgumentException.class, () -> NoisySgd.train(handProblem(100, 1, 0), SOURCE, "x"));
    assertThrows(IllegalArgumentException.class, () -> NoisySgd.train(handProblem(100, 1, 1e-3), SOURCE, "x", -1));
    BatchProblem single = new BatchProblem(new double[][] {{0.1}}, new double[] {0}, GlmLoss.squared(),
        LpBall.of(INF, 1), new PrivacyBudget(1, 1e-3), new DataBounds(1, 1));
    assertThrows(IllegalArgumentException.class, () -> NoisySgd.train(single, SOURCE, "x"));
  }

  @Test
  void describesItsCalibration() {
    String description = NoisySgd.describe(handProblem(100, 1, Math.exp(-2)));
    assertTrue(description.contains("T=10000") && description.contains("m=1"), description);
  }

  /**
   * The run is Algorithm 2 of Bassily et al. (2020) step by step: each iteration draws m indices with replacement,
   * steps against the mean of their clipped gradients plus Gaussian noise, projects, and the result is the
   * projected average of the iterates. A reference on the same keyed bits (blocks of 4096 iterations, each on its
   * own stream position) reaches the same doubles, for a batch of 3 and of 1, across two blocks.
   */
  @Test
  void theRunIsProjectedNoisyClippedMiniBatchDescent() {
    RegressionData data = new RegressionData(3, 2, 2, 0.05);
    BatchProblem problem = data.problem(40, new PrivacyBudget(1, 1e-3), rng(21));
    NoisySgdCalibration calibrated = NoisySgdCalibration.of(problem, 1.0);
    for (int batch : new int[] {3, 1}) {
      NoisySgdCalibration calibration = new NoisySgdCalibration(40, 3, 5000, batch, 0.05, calibrated.lipschitz(),
          calibrated.euclideanLipschitz(), calibrated.euclideanDiameter(), 0.1);
      org.dpstream.core.privacy.random.NoiseStream bits = SOURCE.forStream(NoisySgd.NOISE_PURPOSE, "reference");
      assertArrayEquals(reference(problem, calibration, bits), NoisySgd.run(problem, calibration, bits),
          "batch " + batch);
    }
  }

  private static double[] reference(BatchProblem problem, NoisySgdCalibration calibration,
      org.dpstream.core.privacy.random.NoiseStream stream) {
    ClippedGradients gradients = new ClippedGradients(problem);
    org.dpstream.core.privacy.noise.IidVectorNoise noise =
        org.dpstream.core.privacy.noise.IidVectorNoise.gaussian(3, calibration.sigma());
    double[] theta = new double[3];
    double[] total = new double[3];
    double[] gradient = new double[3];
    double[] draws = new double[3];
    double[] unprojected = new double[3];
    for (long block = 0; block * NoisySgd.ITERATIONS_PER_BLOCK < calibration.iterations(); block++) {
      UniformRandomProvider bits = stream.at(0, block);
      double[] blockSum = new double[3];
      long end = Math.min(calibration.iterations(), (block + 1) * NoisySgd.ITERATIONS_PER_BLOCK);
      for (long t = block * NoisySgd.ITERATIONS_PER_BLOCK; t < end; t++) {
        if (calibration.batchSize() == 1) {
          gradients.clippedGradient(theta, bits.nextInt(problem.size()), gradient);
        } else {
          Arrays.fill(gradient, 0);
          for (int j = 0; j < calibration.batchSize(); j++) {
            gradients.addClippedGradient(theta, bits.nextInt(problem.size()), gradient);
          }
          for (int k = 0; k < 3; k++) {
            gradient[k] /= calibration.batchSize();
          }
        }
        noise.sample(bits, draws);
        for (int k = 0; k < 3; k++) {
          unprojected[k] = theta[k] - calibration.stepSize() * (gradient[k] + draws[k]);
        }
        problem.domain().project(unprojected, theta);
        for (int k = 0; k < 3; k++) {
          blockSum[k] += theta[k];
        }
      }
      for (int k = 0; k < 3; k++) {
        total[k] += blockSum[k];
      }
    }
    for (int k = 0; k < 3; k++) {
      total[k] /= calibration.iterations();
    }
    return problem.domain().project(total);
  }
}
