package org.dpstream.core.erm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.dpstream.core.loss.GlmLoss;
import org.junit.jupiter.api.Test;

class RegularizerAndObjectiveTest {

  @Test
  void proxesWorkedByHand() {
    // l1: soft threshold; u = 1.5, gamma = 0.5, lambda = 1: 1.5 - 0.5 = 1.0; u = -0.3 -> 0.
    assertEquals(1.0, Regularizer.l1(1).prox(1.5, 0.5), 0);
    assertEquals(0.0, Regularizer.l1(1).prox(-0.3, 0.5), 0);
    // l2 (lambda/2 v^2): u / (1 + gamma lambda) = 3 / (1 + 0.5 * 4) = 1.
    assertEquals(1.0, Regularizer.l2(4).prox(3, 0.5), 1e-15);
    // elastic net lambda = 2, a = 0.5: l1 = 1, l2 = 1; u = -3, gamma = 1: -(3 - 1)/(1 + 1) = -1.
    assertEquals(-1.0, Regularizer.elasticNet(2, 0.5).prox(-3, 1), 1e-15);
    assertEquals(5.0, Regularizer.none().prox(5.0, 10), 0);
    // psi values: l1(2) at (1, -2) = 6; elastic(2, .5) at (2) = 1*2 + 0.5*1*4 = 4.
    assertEquals(6.0, Regularizer.l1(2).value(new double[] {1, -2}), 0);
    assertEquals(4.0, Regularizer.elasticNet(2, 0.5).value(new double[] {2}), 1e-15);
  }

  @Test
  void smoothnessConstantsComeFromTheDeclaredBoundsOnly() {
    FeatureBounds bounds = FeatureBounds.of(2, 1, 0.5);
    CompositeObjective squared = CompositeObjective.of(GlmLoss.squared(), Regularizer.none());
    CompositeObjective logistic = CompositeObjective.of(GlmLoss.logistic(), Regularizer.none());
    // M_j = k b_j^2: squared k = 1, logistic k = 1/4.
    assertArrayEquals(new double[] {4, 1, 0.25}, squared.coordinateSmoothness(bounds), 0);
    assertArrayEquals(new double[] {1, 0.25, 0.0625}, logistic.coordinateSmoothness(bounds), 0);
    // Blocks {0, 1}, {2}: M_j = k b_j sum_{l in B(j)} b_l = (2*3, 1*3, 0.5*0.5).
    BlockPartition partition = BlockPartition.of(3, new int[][] {{0, 1}, {2}});
    assertArrayEquals(new double[] {6, 3, 0.25}, squared.blockSmoothness(bounds, partition), 0);
    // Singletons: the coordinate constants; one block: global Gershgorin k b_j sum_l b_l.
    assertArrayEquals(squared.coordinateSmoothness(bounds),
        squared.blockSmoothness(bounds, BlockPartition.contiguous(3, 3)), 0);
    assertArrayEquals(new double[] {7, 3.5, 1.75},
        squared.blockSmoothness(bounds, BlockPartition.contiguous(3, 1)), 0);
    assertEquals(5.25, squared.globalSmoothness(bounds), 0);
    assertEquals(1.0, logistic.residualBound(), 0);
    assertEquals(Double.POSITIVE_INFINITY, squared.residualBound(), 0);
  }

  @Test
  void valueWorkedByHand() {
    ErmDataset data = ErmDataset.of(new double[][] {{1, 0}, {0, 2}}, new double[] {1, 0},
        FeatureBounds.of(1, 2));
    CompositeObjective objective = CompositeObjective.of(GlmLoss.squared(), Regularizer.l1(0.5));
    // w = (2, 1): residuals 2 - 1 = 1 and 2 - 0 = 2: f = (1/2)(1/2 + 2) = 1.25; psi = 0.5 * 3 = 1.5.
    assertEquals(2.75, objective.value(new double[] {2, 1}, data), 1e-15);
  }

  @Test
  void datasetValidation() {
    FeatureBounds bounds = FeatureBounds.of(1, 1);
    assertThrows(IllegalArgumentException.class,
        () -> ErmDataset.of(new double[][] {{1, 0}, {1}}, new double[] {0, 0}, bounds));
    assertThrows(IllegalArgumentException.class,
        () -> ErmDataset.of(new double[][] {{1, Double.NaN}}, new double[] {0}, bounds));
    assertThrows(IllegalArgumentException.class,
        () -> ErmDataset.of(new double[][] {{1, 2}}, new double[] {0}, bounds));
    assertEquals(1.0, ErmDataset.clampedToBounds(new double[][] {{1, 2}}, new double[] {0}, bounds)
        .feature(0, 1), 0);
    ErmDataset logisticData = ErmDataset.of(new double[][] {{1, 0}}, new double[] {2}, bounds);
    CompositeObjective logistic = CompositeObjective.of(GlmLoss.logistic(), Regularizer.none());
    assertThrows(IllegalArgumentException.class, () -> logistic.requireCompatible(logisticData));
  }
}
