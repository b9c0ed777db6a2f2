package org.dpstream.demo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpstream.core.geometry.LpNorm;
import org.junit.jupiter.api.Test;

class SyntheticRegressionTest {

  @Test
  void featuresHaveUnitDualNormAndThetaStarUnitPrimalNorm() {
    for (DemoModel model : DemoModel.defaults()) {
      LpNorm norm = LpNorm.of(model.exponent());
      SyntheticRegression generator = new SyntheticRegression(model.exponent(), model.dimension(), 7);
      assertEquals(1.0, norm.valueOf(generator.thetaStar()), 1e-12, model.id());
      for (int i = 0; i < 100; i++) {
        assertEquals(1.0, norm.dual().valueOf(generator.next().features()), 1e-12, model.id());
      }
    }
  }

  @Test
  void thetaStarHasFiveLeadingEqualEntries() {
    double[] theta = SyntheticRegression.thetaStar(LpNorm.L2, 7);
    double entry = 1 / Math.sqrt(5);
    assertArrayEquals(new double[] {entry, entry, entry, entry, entry, 0, 0}, theta, 1e-15);
  }

  @Test
  void theSameSeedGivesTheSameStream() {
    SyntheticRegression a = new SyntheticRegression(1.5, 5, 42);
    SyntheticRegression b = new SyntheticRegression(1.5, 5, 42);
    for (int i = 0; i < 10; i++) {
      LabelledPoint x = a.next();
      LabelledPoint y = b.next();
      assertArrayEquals(x.features(), y.features());
      assertEquals(x.label(), y.label());
    }
  }

  @Test
  void thetaStarBeatsZeroOnTheTestSetByTheSignalVariance() {
    SyntheticRegression generator = new SyntheticRegression(2, 5, 3);
    TestSet testSet = generator.testSet(4000);
    double atThetaStar = testSet.risk(generator.thetaStar());
    // The risk at theta* is the label noise variance 0.05^2; allow for sampling error.
    assertEquals(0.0025, atThetaStar, 0.0003);
    assertTrue(testSet.riskAtZero() > 10 * atThetaStar, "risk at 0: " + testSet.riskAtZero());
  }
}
