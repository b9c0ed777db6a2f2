package org.dpstream.bench.ofw;

/**
 * Test-set risk and suboptimality of Han et al., section 5.2:
 *
 * <pre>
 *   L(theta)  = (1/n) sum_i (y_i - &lt;x_i, theta&gt;)^2        on the test set (no factor 1/2)
 *   SubOpt    = (L(theta^) - L(theta*)) / (L(theta_0) - L(theta*)),   theta_0 = 0
 * </pre>
 *
 * so SubOpt is 0 at the true parameter and 1 at the initialisation. It can be slightly negative when
 * an estimate fits the finite test set better than theta* does.
 */
public final class SubOpt {

  private final double[][] features;
  private final double[] labels;
  private final double truthRisk;
  private final double scale;

  /** @param thetaStar the true parameter theta */
  public SubOpt(double[][] testFeatures, double[] testLabels, double[] thetaStar) {
    if (testFeatures.length != testLabels.length || testFeatures.length == 0) {
      throw new IllegalArgumentException(
          "need a non-empty test set with one label per row: " + testFeatures.length + " rows, "
              + testLabels.length + " labels");
    }
    this.features = testFeatures;
    this.labels = testLabels;
    this.truthRisk = risk(thetaStar);
    double baseline = risk(new double[thetaStar.length]) - truthRisk;
    if (!(baseline > 0)) {
      throw new IllegalArgumentException("L(0) must exceed L(theta*) on the test set; got a gap of " + baseline);
    }
    this.scale = baseline;
  }

  public static SubOpt on(RegressionDataset data) {
    return new SubOpt(data.testFeatures(), data.testLabels(), data.thetaStar());
  }

  /** L(theta): mean squared error on the test set (the table's "risk"). */
  public double risk(double[] theta) {
    double sum = 0;
    for (int n = 0; n < labels.length; n++) {
      double[] x = features[n];
      if (x.length != theta.length) {
        throw new IllegalArgumentException("theta has length " + theta.length + ", features " + x.length);
      }
      double residual = labels[n];
      for (int i = 0; i < x.length; i++) {
        residual -= x[i] * theta[i];
      }
      sum += residual * residual;
    }
    return sum / labels.length;
  }

  /** SubOpt of an estimate. */
  public double of(double[] theta) {
    return ofRisk(risk(theta));
  }

  /** SubOpt for an already computed L(theta^). */
  public double ofRisk(double risk) {
    return (risk - truthRisk) / scale;
  }
}
