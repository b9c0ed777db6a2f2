package org.dpstream.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RiskCurveTest {

  private final TestSet testSet = new TestSet(new LabelledPoint[] {new LabelledPoint(new double[] {1}, 1)});

  @Test
  void evaluatesOnAGeometricGridAndAlwaysAtTheEnd() {
    RiskCurve curve = new RiskCurve(testSet);
    for (long step = 1; step <= 10_000; step++) {
      curve.offer(step, new double[] {0.5});
    }
    double last = curve.close(10_000, new double[] {1});
    List<RiskCurve.Point> points = curve.points();
    assertEquals(0.0, last);
    assertEquals(10_000, points.get(points.size() - 1).step());
    // Every step up to about 20, then 5% apart: a few hundred points, not 10,000.
    assertTrue(points.size() > 100 && points.size() < 250, "points: " + points.size());
    for (int i = 1; i < points.size() - 1; i++) {
      assertTrue(points.get(i).step() > points.get(i - 1).step());
    }
    assertEquals(0.25, points.get(0).risk(), 1e-15);
  }

  @Test
  void closingAtAnEvaluatedStepAddsNoDuplicate() {
    RiskCurve curve = new RiskCurve(testSet);
    curve.offer(1, new double[] {0});
    assertEquals(1.0, curve.close(1, new double[] {0}));
    assertEquals(1, curve.points().size());
  }
}
