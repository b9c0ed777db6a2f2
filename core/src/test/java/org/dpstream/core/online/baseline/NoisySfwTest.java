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
import org.dpstream.core.privacy.accounting.NormRegularity;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.noise.GeneralizedGaussianNoise;
import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.dpstream.core.privacy.noise.VectorNoise;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;

class NoisySfwTest {

  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(2021));

  private static UniformRandomProvider rng(long seed) {
    return RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
  }

  /**
   * n samples in R^4 inside ||x||_2 &lt;= 1, |y| &lt;= 1, squared loss on the l_2 ball of radius 1, budget
   * (epsilon, e^-2) so that ln(1/delta) = 2. The calibration depends only on these declarations.
   */
  @Test
  void fourSamplesAreTheSmallestProblem() {
    assertEquals(4, NoisySfwCalibration.of(handProblem(4, 1), 1.0).samples());
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
        () -> NoisySfwCalibration.of(handProblem(3, 1), 1.0));
    assertTrue(refused.getMessage().contains("at least 4 samples"), refused.getMessage());
  }

  private static BatchProblem handProblem(int n, double epsilon) {
    UniformRandomProvider rng = rng(n);
    double[][] features = new double[n][4];
    double[] labels = new double[n];
    for (int i = 0; i < n; i++) {
      for (int k = 0; k < 4; k++) {
        features[i][k] = rng.nextDouble() - 0.5; // ||x||_2 <= 1
      }
      labels[i] = 2 * rng.nextDouble() - 1;
    }
    return new BatchProblem(features, labels, GlmLoss.squared(), LpBall.of(2, 1),
        new PrivacyBudget(epsilon, Math.exp(-2)), new DataBounds(1, 1));
  }

  /**
   * By hand, n = 100, d = 4, p = q = 2: kappa_2 = min{q - 1, e^2 (ln 4 - 1)} = min{1, 2.85} = 1 (Lemma 3.2);
   * L = (X r + Y) X = 2, beta = X^2 = 1, D = 2. s_0 = 50, b = floor(10/2) = 5, K = 50/5 = 10 updates,
   * eta = ln(100)/10 = 0.46051701859880914. The mechanism factor sqrt(2 kappa ln(1/delta)) / epsilon
   * = sqrt(2 * 1 * 2) / 1 = 2, so
   * sigma_0 = (2 L / s_0) * 2 = (4/50) * 2 = 0.16 and
   * sigma   = (2 beta eta D / b) * 2 = (2 * 0.46051701859880914 * 2 / 5) * 2 = 0.7368272297580946.
   */
  @Test
  void calibrationMatchesTheHandComputation() {
    NoisySfwCalibration calibration = NoisySfwCalibration.of(handProblem(100, 1), 1.0);
    assertEquals(50, calibration.initialBatch());
    assertEquals(5, calibration.batchSize());
    assertEquals(10, calibration.updates());
    assertEquals(0.46051701859880914, calibration.stepSize(), 1e-15);
    assertEquals(1.0, calibration.regularity().kappa());
    // Clip bounds are widened for floating point and sigma rounded up: about 2e-12 relative, never down.
    assertEquals(0.16, calibration.initialSigma(), 0.16 * 1e-11);
    assertEquals(0.7368272297580946, calibration.updateSigma(), 0.74 * 1e-11);
    assertTrue(calibration.initialSigma() >= 0.16);
    assertTrue(calibration.updateSigma() >= 0.7368272297580946);
  }

  @Test
  void noiseShrinksAsEpsilonGrows() {
    NoisySfwCalibration half = NoisySfwCalibration.of(handProblem(100, 0.5), 1.0);
    NoisySfwCalibration one = NoisySfwCalibration.of(handProblem(100, 1), 1.0);
    // sigma is proportional to 1/epsilon.
    assertEquals(2.0, half.initialSigma() / one.initialSigma(), 1e-12);
    assertEquals(2.0, half.updateSigma() / one.updateSigma(), 1e-12);
  }

  /**
   * sigma_0 is proportional to 1/s_0 = 2/n and sigma to eta/b = (ln n / sqrt n) / (sqrt n / 2) = 2 ln(n)/n:
   * both grow when n shrinks. From n = 400 to n = 100: sigma_0 by 200/50 = 4, sigma by
   * (ln 100 / 50) / (ln 400 / 200) = 0.0921034 / 0.0299573 = 3.07449...
   */
  @Test
  void noiseGrowsAsTheDataSetShrinks() {
    NoisySfwCalibration small = NoisySfwCalibration.of(handProblem(100, 1), 1.0);
    NoisySfwCalibration large = NoisySfwCalibration.of(handProblem(400, 1), 1.0);
    assertEquals(4.0, small.initialSigma() / large.initialSigma(), 1e-12);
    double expected = (Math.log(100) / 10 / 5) / (Math.log(400) / 20 / 10);
    assertEquals(expected, small.updateSigma() / large.updateSigma(), 1e-12);
    assertEquals(3.07449, expected, 1e-5);
  }

  @Test
  void theStepSizeScaleMovesTheUpdateNoiseWithIt() {
    NoisySfwCalibration base = NoisySfwCalibration.of(handProblem(100, 1), 1.0);
    NoisySfwCalibration scaled = NoisySfwCalibration.of(handProblem(100, 1), 0.5);
    assertEquals(0.5, scaled.stepSize() / base.stepSize(), 1e-15);
    assertEquals(0.5, scaled.updateSigma() / base.updateSigma(), 1e-12);
    assertEquals(base.initialSigma(), scaled.initialSigma());
    // eta is capped at 1: a Frank-Wolfe step must stay a convex combination.
    assertEquals(1.0, NoisySfwCalibration.of(handProblem(100, 1), 100).stepSize());
  }

  @Test
  void resultLiesInTheDomain() {
    for (double p : new double[] {1.5, 2, 3, Double.POSITIVE_INFINITY}) {
      RegressionData data = new RegressionData(6, p, 2, 0.05);
      BatchProblem problem = data.problem(400, new PrivacyBudget(1, 1.0 / 400), rng(7));
      for (double scale : new double[] {1, 10}) {
        double[] theta = NoisySfw.train(problem, SOURCE, "domain-" + p + "-" + scale, scale);
        assertTrue(problem.domain().contains(theta), "p = " + p + ": " + Arrays.toString(theta));
      }
    }
  }

  /**
   * With the noise switched off (the large-budget limit: epsilon &gt; 1 is rejected, see {@link
   * #rejectsBudgetsOutsideTheProvedRange}), the optimiser alone reaches a small fraction of the excess
   * risk of theta = 0 on a linear regression with an interior optimum. With a constant step eta the
   * Frank-Wolfe iterate keeps oscillating around an interior optimum by about eta D, so the test needs a
   * large n (eta = ln(n)/sqrt(n) = 0.027 at n = 200000).
   */
  @Test
  void withoutNoiseItConvergesOnLinearRegression() {
    RegressionData data = new RegressionData(5, 1.5, 2, 0.05);
    BatchProblem problem = data.problem(200_000, new PrivacyBudget(1, 1e-5), rng(11));
    NoisySfwCalibration calibration = NoisySfwCalibration.of(problem, 1.0).withoutNoise();
    double[] theta = NoisySfw.run(problem, calibration, SOURCE.forStream(NoisySfw.NOISE_PURPOSE, "noiseless"));
    double relativeExcess = data.relativeExcessRisk(theta);
    assertTrue(relativeExcess < 0.05, "relative excess risk " + relativeExcess);
  }

  @Test
  void sameKeyAndRunIdReproduceTheRunAndAnotherRunIdDoesNot() {
    RegressionData data = new RegressionData(5, 1.5, 2, 0.05);
    BatchProblem problem = data.problem(1000, new PrivacyBudget(1, 1e-3), rng(3));
    double[] first = NoisySfw.train(problem, SOURCE, "run-a");
    double[] again = NoisySfw.train(problem, new KeyedNoiseSource(TestKeys.seeded(2021)), "run-a");
    double[] other = NoisySfw.train(problem, SOURCE, "run-b");
    assertArrayEquals(first, again, 0);
    assertFalse(Arrays.equals(first, other));
  }

  @Test
  void rejectsBudgetsOutsideTheProvedRange() {
    assertThrows(IllegalArgumentException.class, () -> NoisySfwCalibration.of(handProblem(100, 1.5), 1.0));
    BatchProblem noDelta = new BatchProblem(new double[][] {{0.1}, {0.2}, {0.3}, {0.4}}, new double[] {0, 0, 0, 0},
        GlmLoss.squared(), LpBall.of(2, 1), new PrivacyBudget(1, 0), new DataBounds(1, 1));
    assertThrows(IllegalArgumentException.class, () -> NoisySfw.train(noDelta, SOURCE, "x"));
  }

  @Test
  void rejectsTheL1BallTooFewSamplesAndBadScales() {
    BatchProblem l1 = new BatchProblem(new double[][] {{0.1}, {0.2}, {0.3}, {0.4}}, new double[] {0, 0, 0, 0},
        GlmLoss.squared(), LpBall.of(1, 1), new PrivacyBudget(1, 1e-5), new DataBounds(1, 1));
    assertThrows(IllegalArgumentException.class, () -> NoisySfw.train(l1, SOURCE, "x"));
    BatchProblem three = new BatchProblem(new double[][] {{0.1}, {0.2}, {0.3}}, new double[] {0, 0, 0},
        GlmLoss.squared(), LpBall.of(2, 1), new PrivacyBudget(1, 1e-5), new DataBounds(1, 1));
    assertThrows(IllegalArgumentException.class, () -> NoisySfw.train(three, SOURCE, "x"));
    assertThrows(IllegalArgumentException.class, () -> NoisySfw.train(handProblem(100, 1), SOURCE, "x", 0));
    assertThrows(IllegalArgumentException.class,
        () -> NoisySfw.train(handProblem(100, 1), SOURCE, "x", Double.NaN));
  }

  @Test
  void describesItsCalibration() {
    String description = NoisySfw.describe(handProblem(100, 1));
    assertTrue(description.contains("sigma0=") && description.contains("b=5"), description);
  }

  /**
   * The run is the noisy stochastic Frank-Wolfe of Bassily et al. (2021) step by step: a noisy mean clipped gradient
   * of the first batch, then per update a step towards the linear minimiser of the direction and a variance-reduced
   * correction (the mean clipped gradient difference of the next batch plus noise); after the last update the
   * projected step is the result. A reference on the same keyed bits reaches the same doubles, with and without
   * noise.
   */
  @Test
  void theRunIsNoisyRecursiveFrankWolfe() {
    RegressionData data = new RegressionData(4, 1.5, 2, 0.05);
    BatchProblem problem = data.problem(400, new PrivacyBudget(1, 1.0 / 400), rng(23));
    NoisySfwCalibration noisy = NoisySfwCalibration.of(problem, 1.0);
    assertTrue(noisy.updates() >= 2 && noisy.batchSize() >= 2 && noisy.updateSigma() > 0, noisy.describe());
    for (NoisySfwCalibration calibration : new NoisySfwCalibration[] {noisy, noisy.withoutNoise()}) {
      org.dpstream.core.privacy.random.NoiseStream bits = SOURCE.forStream(NoisySfw.NOISE_PURPOSE, "reference");
      double[] expected = reference(problem, calibration, bits);
      assertArrayEquals(expected, NoisySfw.run(problem, calibration, bits), calibration.describe());
    }
    assertFalse(Arrays.equals(reference(problem, noisy, SOURCE.forStream(NoisySfw.NOISE_PURPOSE, "reference")),
        reference(problem, noisy.withoutNoise(), SOURCE.forStream(NoisySfw.NOISE_PURPOSE, "reference"))));
  }

  /**
   * Both noises, the initial estimate's and each update's, are the generalized Gaussian of their calibrated sigma
   * for the smooth norm of the problem's regularity: drawn on the same bits, each equals the law built from the
   * calibration's numbers. p = 1.5 and 2 take the lq+ norm, p = 4 the scaled Euclidean one (a scale below 1).
   */
  @Test
  void bothNoisesAreTheGeneralizedGaussianOfTheirCalibratedSigma() {
    int d = 4;
    for (double p : new double[] {1.5, 2, 4}) {
      BatchProblem problem = new RegressionData(d, p, 2, 0.05).problem(400, new PrivacyBudget(1, 1.0 / 400), rng(23));
      NoisySfwCalibration calibration = NoisySfwCalibration.of(problem, 1.0);
      NormRegularity regularity = calibration.regularity();
      double[] sigmas = {calibration.initialSigma(), calibration.updateSigma()};
      VectorNoise[] noises = {calibration.initialNoise(), calibration.updateNoise()};
      for (int i = 0; i < 2; i++) {
        double sigma = sigmas[i];
        assertTrue(sigma > 0, calibration.describe());
        VectorNoise expected = switch (regularity.smoothNorm()) {
          case LP -> GeneralizedGaussianNoise.ofLqPlus(d, regularity.smoothNormExponent(), sigma);
          case SCALED_L2 -> IidVectorNoise.gaussian(d, Sensitivities.roundUp(sigma / regularity.euclideanScale()));
        };
        org.dpstream.core.privacy.random.NoiseStream bits = SOURCE.forStream(NoisySfw.NOISE_PURPOSE, "law-" + p);
        double[] actual = new double[d];
        double[] wanted = new double[d];
        noises[i].sample(bits.at(0, i), actual);
        expected.sample(bits.at(0, i), wanted);
        assertArrayEquals(wanted, actual, "p = " + p + ", noise " + i);
      }
      // Han et al. Lemma 2.1: sigma = sensitivity sqrt(2 kappa ln(1/delta)) / epsilon, rounded up.
      double mechanismFactor = Math.sqrt(2 * regularity.kappa() * Math.log(400)) / 1;
      assertEquals(Sensitivities.roundUp(2 * Sensitivities.exactNormBound(calibration.lipschitz(), d)
          / calibration.initialBatch() * mechanismFactor), calibration.initialSigma(), "p = " + p);
      if (p == 1.5) {
        assertTrue(regularity.kappa() > 1, "kappa must tell 2 kappa from 2 / kappa: " + regularity.kappa());
      }
      if (p == 4) {
        assertEquals(NormRegularity.SmoothNorm.SCALED_L2, regularity.smoothNorm());
        assertTrue(regularity.euclideanScale() != 1, "the scale must tell sigma / c from sigma * c");
      }
    }
  }

  private static double[] reference(BatchProblem problem, NoisySfwCalibration calibration,
      org.dpstream.core.privacy.random.NoiseStream bits) {
    int d = problem.dimension();
    ClippedGradients gradients = new ClippedGradients(problem);
    org.dpstream.core.geometry.NormClipper differenceClipper =
        org.dpstream.core.geometry.NormClipper.of(gradients.dualNorm(), calibration.updateClipBound());
    double[] theta = new double[d];
    double[] direction = new double[d];
    double[] scratch = new double[d];
    for (int i = 0; i < calibration.initialBatch(); i++) {
      gradients.addClippedGradient(theta, i, direction);
    }
    for (int k = 0; k < d; k++) {
      direction[k] *= 1.0 / calibration.initialBatch();
    }
    addDraw(direction, calibration.initialSigma() > 0 ? calibration.initialNoise() : null, bits, 0);
    int next = calibration.initialBatch();
    for (int t = 1; ; t++) {
      double[] vertex = new double[d];
      problem.domain().minimizeLinear(direction, vertex);
      double[] stepped = new double[d];
      for (int k = 0; k < d; k++) {
        stepped[k] = theta[k] + calibration.stepSize() * (vertex[k] - theta[k]);
      }
      if (t > calibration.updates()) {
        return problem.domain().project(stepped);
      }
      double[] batchSum = new double[d];
      for (int j = 0; j < calibration.batchSize(); j++) {
        gradients.addClippedDifference(stepped, theta, next++, differenceClipper, scratch, batchSum);
      }
      for (int k = 0; k < d; k++) {
        direction[k] += batchSum[k] / calibration.batchSize();
      }
      addDraw(direction, calibration.updateSigma() > 0 ? calibration.updateNoise() : null, bits, t);
      theta = stepped;
    }
  }

  private static void addDraw(double[] target, org.dpstream.core.privacy.noise.VectorNoise noise,
      org.dpstream.core.privacy.random.NoiseStream bits, long index) {
    if (noise == null) {
      return;
    }
    double[] draw = new double[target.length];
    noise.sample(bits.at(0, index), draw);
    for (int k = 0; k < target.length; k++) {
      target[k] += draw[k];
    }
  }
}
