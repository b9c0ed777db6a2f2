package org.dpstream.bench.ofw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SubOptTest {

  private final RegressionDataset data = RegressionDataset.generate(1.5, 5, 10, 5000, 1);
  private final SubOpt subOpt = SubOpt.on(data);

  @Test
  void isZeroAtTheTruthAndOneAtTheOrigin() {
    assertEquals(0.0, subOpt.of(data.thetaStar()), 1e-12);
    assertEquals(1.0, subOpt.of(new double[5]), 1e-12);
  }

  @Test
  void riskIsTheMeanSquaredErrorOnTheTestSet() {
    double[] theta = {0.1, -0.2, 0.3, 0, 0.5};
    double sum = 0;
    for (int n = 0; n < data.testLabels().length; n++) {
      double r = data.testLabels()[n];
      for (int i = 0; i < 5; i++) {
        r -= data.testFeatures()[n][i] * theta[i];
      }
      sum += r * r;
    }
    assertEquals(sum / data.testLabels().length, subOpt.risk(theta), 1e-15);
    // At theta* the risk is the label noise variance 0.05^2.
    assertEquals(0.0025, subOpt.risk(data.thetaStar()), 2.5e-4);
  }

  @Test
  void growsAwayFromTheTruth() {
    double[] far = data.thetaStar().clone();
    for (int i = 0; i < far.length; i++) {
      far[i] = -far[i];
    }
    assertTrue(subOpt.of(far) > 1, "theta = -theta* is worse than theta_0 = 0");
  }
}
