package org.dpstream.bench.ofw;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpstream.core.geometry.LpNorm;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RegressionDatasetTest {

  @ParameterizedTest
  @CsvSource({"1, 3", "1.5, 5", "1.5, 8", "2, 20", "Infinity, 5", "Infinity, 10"})
  void followsTheSpecification(double p, int d) {
    int trainSize = 300;
    int testSize = 2000;
    RegressionDataset data = RegressionDataset.generate(p, d, trainSize, testSize, 7);
    LpNorm norm = LpNorm.of(p);
    LpNorm dual = norm.dual();

    assertEquals(trainSize, data.trainFeatures().length);
    assertEquals(trainSize, data.trainLabels().length);
    assertEquals(testSize, data.testFeatures().length);
    assertEquals(testSize, data.testLabels().length);
    assertEquals(d, data.dimension());

    double[] theta = data.thetaStar();
    assertEquals(1.0, norm.valueOf(theta), 1e-12, "theta* has unit p-norm");
    int support = Math.min(5, d);
    for (int i = 0; i < d; i++) {
      if (i < support) {
        assertEquals(theta[0], theta[i], 0.0, "first min(5, d) entries equal");
        assertTrue(theta[i] > 0);
      } else {
        assertEquals(0.0, theta[i], 0.0, "entries beyond the support are 0");
      }
    }

    double residualSquares = 0;
    for (double[][] set : new double[][][] {data.trainFeatures(), data.testFeatures()}) {
      for (double[] x : set) {
        assertEquals(d, x.length);
        assertEquals(1.0, dual.valueOf(x), 1e-12, "features have unit q-norm");
      }
    }
    for (int n = 0; n < testSize; n++) {
      double residual = data.testLabels()[n];
      for (int i = 0; i < d; i++) {
        residual -= data.testFeatures()[n][i] * theta[i];
      }
      residualSquares += residual * residual;
    }
    double noiseSd = Math.sqrt(residualSquares / testSize);
    assertEquals(0.05, noiseSd, 0.005, "label noise N(0, 0.05^2)");
  }

  @ParameterizedTest
  @CsvSource({"1.5, 5", "Infinity, 10"})
  void isReproducibleAndSharesTheTestSetAndStreamPrefixAcrossT(double p, int d) {
    RegressionDataset small = RegressionDataset.generate(p, d, 100, 500, 3);
    RegressionDataset large = RegressionDataset.generate(p, d, 400, 500, 3);
    for (int n = 0; n < 500; n++) {
      assertArrayEquals(small.testFeatures()[n], large.testFeatures()[n]);
    }
    for (int n = 0; n < 100; n++) {
      assertArrayEquals(small.trainFeatures()[n], large.trainFeatures()[n]);
      assertEquals(small.trainLabels()[n], large.trainLabels()[n]);
    }
    RegressionDataset otherSeed = RegressionDataset.generate(p, d, 100, 500, 4);
    assertTrue(otherSeed.trainLabels()[0] != small.trainLabels()[0]);
  }

  @ParameterizedTest
  @CsvSource({"1.5", "Infinity"})
  void declaredLabelBoundCoversTheSignal(double p) {
    // |<x, theta*>| <= ||x||_q ||theta*||_p = 1 < 1 + 5 * 0.05
    RegressionDataset data = RegressionDataset.generate(p, 5, 2000, 1, 11);
    assertEquals(1.0, RegressionDataset.declaredBounds().featureDualNorm());
    assertEquals(1.25, RegressionDataset.declaredBounds().labelBound(), 1e-15);
    long beyond = java.util.Arrays.stream(data.trainLabels()).filter(y -> Math.abs(y) > 1.25).count();
    assertEquals(0, beyond);
  }
}
