package org.dpstream.core.online.baseline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.dpstream.core.geometry.LpBall;
import org.dpstream.core.loss.DataBounds;
import org.dpstream.core.loss.GlmLoss;
import org.dpstream.core.loss.SampleLoss;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.junit.jupiter.api.Test;

class BatchProblemTest {

  private static final LpBall DOMAIN = LpBall.of(2, 1);
  private static final PrivacyBudget BUDGET = new PrivacyBudget(1, 1e-5);
  private static final DataBounds BOUNDS = new DataBounds(1, 1);

  private static BatchProblem problem(double[][] features, double[] labels) {
    return problem(features, labels, GlmLoss.squared());
  }

  private static BatchProblem problem(double[][] features, double[] labels, SampleLoss loss) {
    return new BatchProblem(features, labels, loss, DOMAIN, BUDGET, BOUNDS);
  }

  @Test
  void acceptsRectangularFiniteData() {
    BatchProblem problem = problem(new double[][] {{0.1, 0.2}, {0.3, -0.4}, {0, 0}}, new double[] {1, -1, 0});
    assertEquals(3, problem.size());
    assertEquals(2, problem.dimension());
  }

  @Test
  void rejectsRaggedFeatures() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> problem(new double[][] {{0.1, 0.2}, {0.3}}, new double[] {1, 1}));
    assertEquals(true, e.getMessage().contains("ragged"), e.getMessage());
  }

  @Test
  void rejectsLabelsOfTheWrongLength() {
    assertThrows(IllegalArgumentException.class,
        () -> problem(new double[][] {{0.1, 0.2}, {0.3, 0.4}}, new double[] {1, 1, 1}));
  }

  @Test
  void rejectsEmptyDataAndRowsWithoutColumns() {
    assertThrows(IllegalArgumentException.class, () -> problem(new double[0][], new double[0]));
    assertThrows(IllegalArgumentException.class, () -> problem(new double[][] {{}}, new double[] {1}));
  }

  @Test
  void rejectsNonFiniteValues() {
    assertThrows(IllegalArgumentException.class,
        () -> problem(new double[][] {{0.1, Double.NaN}}, new double[] {1}));
    assertThrows(IllegalArgumentException.class,
        () -> problem(new double[][] {{0.1, Double.POSITIVE_INFINITY}}, new double[] {1}));
    assertThrows(IllegalArgumentException.class,
        () -> problem(new double[][] {{0.1, 0.2}}, new double[] {Double.NaN}));
  }

  @Test
  void rejectsNullRows() {
    assertThrows(NullPointerException.class, () -> problem(new double[][] {{0.1}, null}, new double[] {1, 1}));
  }

  @Test
  void rejectsLabelsTheLossDoesNotAdmit() {
    // Logistic labels must lie in [0, 1].
    assertThrows(IllegalArgumentException.class,
        () -> problem(new double[][] {{0.1, 0.2}}, new double[] {2}, GlmLoss.logistic()));
  }

  @Test
  void holdsItsOwnCopyOfTheData() {
    double[][] features = {{0.1, 0.2}};
    double[] labels = {0.5};
    BatchProblem problem = problem(features, labels);
    features[0][0] = 9;
    labels[0] = 9;
    problem.features()[0][1] = 9;
    problem.labels()[0] = 9;
    assertEquals(0.1, problem.row(0)[0]);
    assertEquals(0.2, problem.row(0)[1]);
    assertEquals(0.5, problem.label(0));
  }
}
