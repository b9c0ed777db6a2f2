package org.dpstream.core.erm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class FeatureScalingTest {

  private static final double[] BOUNDS = {4000, 0.05, 1};

  @Test
  void dividesEveryFeatureByItsBoundAndDeclaresBoundsOfOne() {
    ErmDataset data = ErmDataset.of(new double[][] {{4000, -0.05, 0.5}, {-1000, 0.01, 1}},
        new double[] {1, 0}, FeatureBounds.of(BOUNDS));
    ErmDataset scaled = FeatureScaling.byBounds(data.bounds()).apply(data);
    assertEquals(FeatureBounds.uniform(3, 1.0), scaled.bounds());
    assertArrayEquals(new double[] {1, -1, 0.5}, scaled.row(0), 0);
    assertArrayEquals(new double[] {-0.25, 0.2, 1}, scaled.row(1), 1e-15);
    assertEquals(0, scaled.label(1));
  }

  @Test
  void weightsMapBackToOriginalUnitsWithTheSameMargins() {
    ErmDataset data = ErmFixtures.classification(3L, 50, BOUNDS, new double[] {1e-3, 40, 1});
    FeatureScaling scaling = FeatureScaling.byBounds(data.bounds());
    ErmDataset scaled = scaling.apply(data);
    double[] scaledWeights = {0.7, -1.3, 2.0};
    double[] original = scaling.toOriginalUnits(scaledWeights);
    assertArrayEquals(new double[] {0.7 / 4000, -1.3 / 0.05, 2.0}, original, 0);
    assertArrayEquals(scaledWeights, scaling.toScaledUnits(original), 1e-15);
    for (int i = 0; i < data.size(); i++) {
      assertEquals(scaled.margin(i, scaledWeights), data.margin(i, original), 1e-12);
    }
    assertThrows(IllegalArgumentException.class, () -> scaling.toOriginalUnits(new double[2]));
  }
}
