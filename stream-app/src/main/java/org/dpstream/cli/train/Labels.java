package org.dpstream.cli.train;

import java.util.Arrays;
import org.dpstream.core.data.LabelledData;
import org.dpstream.core.erm.training.ErmSettings;

/** Label conventions of the losses, and the intercept column. */
final class Labels {

  private Labels() {}

  /**
   * The logistic loss needs labels in {0, 1}: {0, 1} stay, {-1, +1} become {0, 1}; anything else is an
   * error naming the values found. The squared loss takes any finite label.
   */
  static LabelledData forLoss(LabelledData data, ErmSettings.Loss loss, String source) {
    if (loss == ErmSettings.Loss.SQUARED) {
      return data;
    }
    double[] values = data.distinctLabels();
    boolean zeroOne = Arrays.stream(values).allMatch(v -> v == 0 || v == 1);
    boolean plusMinus = Arrays.stream(values).allMatch(v -> v == -1 || v == 1);
    if (zeroOne) {
      return data;
    }
    if (plusMinus) {
      double[] y = data.labels();
      for (int i = 0; i < y.length; i++) {
        y[i] = y[i] > 0 ? 1 : 0;
      }
      return data.withLabels(y);
    }
    double[] shown = Arrays.copyOf(values, Math.min(values.length, 6));
    throw new IllegalArgumentException(source + ": the logistic loss needs labels 0/1 or -1/+1, found "
        + (values.length > 6 ? values.length + " distinct values, e.g. " : "") + Arrays.toString(shown));
  }

  /** The data with a constant feature 1 appended. */
  static LabelledData withIntercept(LabelledData data) {
    double[][] x = data.features();
    for (int i = 0; i < x.length; i++) {
      x[i] = Arrays.copyOf(x[i], x[i].length + 1);
      x[i][x[i].length - 1] = 1;
    }
    return LabelledData.of(x, data.labels());
  }
}
