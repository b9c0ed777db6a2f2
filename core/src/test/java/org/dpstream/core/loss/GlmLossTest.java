package org.dpstream.core.loss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpstream.core.geometry.LpBall;
import org.dpstream.core.geometry.LpNorm;
import org.dpstream.core.geometry.RandomVectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GlmLossTest {

  private static final double INF = Double.POSITIVE_INFINITY;
  private static final GlmLoss[] LOSSES = {GlmLoss.squared(), GlmLoss.logistic()};
  private static final DataBounds DATA = new DataBounds(1.5, 0.7);

  @Test
  void gradientMatchesCentralDifferences() {
    RandomVectors random = RandomVectors.seeded(51);
    double step = 1e-6;
    for (GlmLoss loss : LOSSES) {
      for (int trial = 0; trial < 100; trial++) {
        int d = 1 + random.index(8);
        double[] theta = random.gaussian(d);
        double[] x = random.gaussian(d);
        double y = label(random, loss, 2);
        double[] gradient = new double[d];
        loss.gradient(theta, x, y, gradient);
        for (int i = 0; i < d; i++) {
          double[] up = theta.clone();
          double[] down = theta.clone();
          up[i] += step;
          down[i] -= step;
          double difference = (loss.value(up, x, y) - loss.value(down, x, y)) / (2 * step);
          assertEquals(difference, gradient[i], 1e-7 * (1 + Math.abs(gradient[i])), loss::toString);
        }
      }
    }
  }

  @Test
  void valuesAreTheSquaredAndLogisticLosses() {
    double[] theta = {0.5, -2};
    double[] x = {3, 1};
    double margin = -0.5;
    assertEquals((margin - 2) * (margin - 2) / 2, GlmLoss.squared().value(theta, x, 2), 1e-15);
    for (double y : new double[] {0, 1}) {
      double z = 2 * y - 1; // the {-1, +1} form of the same label
      assertEquals(
          Math.log1p(Math.exp(-z * margin)), GlmLoss.logistic().value(theta, x, y), 1e-15);
    }
    assertEquals(Math.log(2), GlmLoss.logistic().value(new double[] {0}, new double[] {1}, 0.5));
  }

  @ParameterizedTest
  @ValueSource(doubles = {1, 1.5, 2, 3, INF})
  void lipschitzBoundHoldsOnSampledInstances(double p) {
    RandomVectors random = RandomVectors.seeded(52);
    LpBall domain = LpBall.of(p, 2);
    LpNorm dual = domain.norm().dual();
    for (GlmLoss loss : LOSSES) {
      double bound = loss.lipschitzBound(domain, DATA);
      double[] gradient = new double[6];
      for (int trial = 0; trial < 5000; trial++) {
        double[] theta = random.inBall(domain.norm(), 6, domain.radius());
        double[] x = random.inBall(dual, 6, DATA.featureDualNorm());
        loss.gradient(theta, x, label(random, loss, DATA.labelBound()), gradient);
        assertTrue(dual.valueOf(gradient) <= bound * (1 + 1e-12), loss::toString);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(doubles = {1, 1.5, 2, 3, INF})
  void smoothnessBoundHoldsOnSampledInstances(double p) {
    RandomVectors random = RandomVectors.seeded(53);
    LpBall domain = LpBall.of(p, 2);
    LpNorm dual = domain.norm().dual();
    for (GlmLoss loss : LOSSES) {
      double beta = loss.smoothnessBound(domain, DATA);
      double[] gradientA = new double[6];
      double[] gradientB = new double[6];
      for (int trial = 0; trial < 5000; trial++) {
        double[] a = random.inBall(domain.norm(), 6, domain.radius());
        double[] b = random.inBall(domain.norm(), 6, domain.radius());
        double[] x = random.inBall(dual, 6, DATA.featureDualNorm());
        double y = label(random, loss, DATA.labelBound());
        loss.gradient(a, x, y, gradientA);
        loss.gradient(b, x, y, gradientB);
        double change = dual.valueOf(RandomVectors.difference(gradientA, gradientB));
        double distance = domain.norm().valueOf(RandomVectors.difference(a, b));
        assertTrue(change <= beta * distance * (1 + 1e-12) + 1e-15, loss::toString);
      }
    }
  }

  /**
   * The worst cases of the derivations: theta on the sphere aligned with x (x' theta = X r, via
   * the linear minimisation oracle of -x) and the extreme label; a - b aligned with x.
   */
  @ParameterizedTest
  @ValueSource(doubles = {1, 1.5, 2, 3, INF})
  void boundsAreAttainedByAlignedInstances(double p) {
    RandomVectors random = RandomVectors.seeded(54);
    LpBall domain = LpBall.of(p, 2);
    LpNorm dual = domain.norm().dual();
    double[] x = RandomVectors.scaleToNorm(random.gaussian(5), dual, DATA.featureDualNorm());
    double[] aligned = domain.minimizeLinear(RandomVectors.scaled(x, -1));
    double[] gradient = new double[5];

    GlmLoss squared = GlmLoss.squared();
    squared.gradient(aligned, x, -DATA.labelBound(), gradient);
    assertEquals(squared.lipschitzBound(domain, DATA), dual.valueOf(gradient), 1e-12);
    double[] zero = new double[5];
    assertEquals(
        squared.smoothnessBound(domain, DATA),
        gradientChangeRatio(squared, domain, zero, aligned, x),
        1e-12);

    GlmLoss logistic = GlmLoss.logistic();
    logistic.gradient(aligned, x, 0, gradient);
    assertEquals(logistic.lipschitzBound(domain, DATA), dual.valueOf(gradient), 1e-12);
    double[] small = RandomVectors.scaled(aligned, 1e-4);
    double ratio = gradientChangeRatio(logistic, domain, zero, small, x);
    double beta = logistic.smoothnessBound(domain, DATA);
    assertTrue(ratio <= beta && ratio >= 0.999 * beta, () -> ratio + " vs " + beta);
  }

  @Test
  void constantsMatchTheClosedForms() {
    LpBall domain = LpBall.of(1.5, 2);
    // (X r + Y) X and X^2 for the squared loss; sigma(X r) X and X^2 / 4 for the logistic loss.
    assertEquals((1.5 * 2 + 0.7) * 1.5, GlmLoss.squared().lipschitzBound(domain, DATA), 1e-15);
    assertEquals(2.25, GlmLoss.squared().smoothnessBound(domain, DATA), 1e-15);
    assertEquals(
        1.5 / (1 + Math.exp(-3)), GlmLoss.logistic().lipschitzBound(domain, DATA), 1e-15);
    assertEquals(2.25 / 4, GlmLoss.logistic().smoothnessBound(domain, DATA), 1e-15);
  }

  @Test
  void logisticIsStableAtHugeMargins() {
    GlmLoss loss = GlmLoss.logistic();
    double[] x = {10, -10};
    double[] gradient = new double[2];
    for (double margin : new double[] {1000, -1000, 1e300, -1e300}) {
      double[] theta = {margin / 20, -margin / 20}; // x' theta = margin
      for (double y : new double[] {0, 0.5, 1}) {
        double value = loss.value(theta, x, y);
        loss.gradient(theta, x, y, gradient);
        assertTrue(Double.isFinite(value) && value >= 0, () -> margin + ", " + y + ": " + value);
        assertTrue(Double.isFinite(gradient[0]) && Double.isFinite(gradient[1]));
      }
      double wrongSide = margin > 0 ? 0 : 1;
      assertEquals(Math.abs(margin), loss.value(theta, x, wrongSide), 1e-12 * Math.abs(margin));
      assertEquals(0, loss.value(theta, x, 1 - wrongSide), 1e-300);
    }
    CanonicalLink link = CanonicalLink.LOGISTIC;
    assertEquals(1, link.mean(1000));
    assertEquals(0, link.mean(-1000));
    assertEquals(0, link.derivative(1000));
    assertEquals(0.25, link.derivative(0));
  }

  @Test
  void linkDerivativesMatchDifferencesAndStayWithinTheirBound() {
    RandomVectors random = RandomVectors.seeded(55);
    for (CanonicalLink link : CanonicalLink.values()) {
      for (int trial = 0; trial < 1000; trial++) {
        double s = 20 * (random.uniform() - 0.5);
        double difference = (link.mean(s + 1e-6) - link.mean(s - 1e-6)) / 2e-6;
        assertEquals(difference, link.derivative(s), 1e-8, link::toString);
        assertTrue(link.derivative(s) <= link.derivativeBound());
      }
    }
  }

  @Test
  void gradientMayOverwriteItsInputs() {
    double[] theta = {1, 2};
    double[] x = {3, -1};
    double[] expected = new double[2];
    GlmLoss.squared().gradient(theta, x, 0.5, expected);
    GlmLoss.squared().gradient(theta, x, 0.5, x);
    assertArrayEquals(expected, x, 0);
  }

  @Test
  void rejectsInvalidLabelsAndShapes() {
    double[] theta = {1, 2};
    double[] x = {3, -1};
    IllegalArgumentException label =
        assertThrows(IllegalArgumentException.class, () -> GlmLoss.logistic().value(theta, x, -1));
    assertEquals(
        "label y must be in [0, 1] for the logistic link ({0, 1} for classification), got -1.0",
        label.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> GlmLoss.logistic().gradient(theta, x, Double.NaN, new double[2]));
    IllegalArgumentException infinite =
        assertThrows(IllegalArgumentException.class, () -> GlmLoss.squared().value(theta, x, INF));
    assertEquals(
        "label y must be finite for the identity link, got Infinity", infinite.getMessage());
    IllegalArgumentException shape =
        assertThrows(
            IllegalArgumentException.class,
            () -> GlmLoss.squared().value(theta, new double[3], 0));
    assertEquals("x.length must equal theta.length 2, got 3", shape.getMessage());
    IllegalArgumentException out =
        assertThrows(
            IllegalArgumentException.class,
            () -> GlmLoss.squared().gradient(theta, x, 0, new double[1]));
    assertEquals("out.length must equal theta.length 2, got 1", out.getMessage());
  }

  @Test
  void dataBoundsRejectNegativeAndNonFiniteValues() {
    IllegalArgumentException negative =
        assertThrows(IllegalArgumentException.class, () -> new DataBounds(-1, 0));
    assertEquals("featureDualNorm must be finite and >= 0, got -1.0", negative.getMessage());
    IllegalArgumentException nan =
        assertThrows(IllegalArgumentException.class, () -> new DataBounds(1, Double.NaN));
    assertEquals("labelBound must be finite and >= 0, got NaN", nan.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new DataBounds(INF, 1));
  }

  /** An admissible label: uniform on [-bound, bound] (identity) or from {0, 1/2, 1} (logistic). */
  private static double label(RandomVectors random, GlmLoss loss, double bound) {
    if (loss.link() == CanonicalLink.LOGISTIC) {
      return random.index(3) / 2.0;
    }
    return bound * (2 * random.uniform() - 1);
  }

  /** ||grad f(b) - grad f(a)||_q / ||b - a||_p for the sample (x, 0). */
  private static double gradientChangeRatio(
      GlmLoss loss, LpBall domain, double[] a, double[] b, double[] x) {
    double[] gradientA = new double[a.length];
    double[] gradientB = new double[a.length];
    loss.gradient(a, x, 0, gradientA);
    loss.gradient(b, x, 0, gradientB);
    return domain.norm().dual().valueOf(RandomVectors.difference(gradientB, gradientA))
        / domain.norm().valueOf(RandomVectors.difference(b, a));
  }
}
