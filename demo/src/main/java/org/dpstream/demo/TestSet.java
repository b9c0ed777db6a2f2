package org.dpstream.demo;

/** Held-out points and the test risk on them: the mean squared error (y - &lt;x, theta&gt;)^2. */
final class TestSet {

  private final LabelledPoint[] points;

  TestSet(LabelledPoint[] points) {
    this.points = points.clone();
  }

  int size() {
    return points.length;
  }

  double risk(double[] theta) {
    double sum = 0;
    for (LabelledPoint point : points) {
      double[] x = point.features();
      double prediction = 0;
      for (int i = 0; i < x.length; i++) {
        prediction += x[i] * theta[i];
      }
      double residual = point.label() - prediction;
      sum += residual * residual;
    }
    return sum / points.length;
  }

  /** The risk of predicting 0: what a model must beat to have learnt anything. */
  double riskAtZero() {
    return risk(new double[points[0].features().length]);
  }
}
