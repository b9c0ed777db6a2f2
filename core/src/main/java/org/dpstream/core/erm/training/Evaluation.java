package org.dpstream.core.erm.training;

import java.util.Locale;
import org.dpstream.core.data.LabelledData;

/** Held-out metrics of a linear model: accuracy for binary labels, mean squared error otherwise. */
public final class Evaluation {

  /**
   * @param accuracy fraction of correct sign / threshold predictions; NaN if the labels are not binary
   * @param meanSquaredError of the margins against the labels (squared loss only, else NaN)
   */
  public record Metrics(double accuracy, double meanSquaredError, int records) {
    public String describe() {
      StringBuilder text = new StringBuilder();
      if (!Double.isNaN(accuracy)) {
        text.append(String.format(Locale.ROOT, "accuracy %.4f", accuracy));
      }
      if (!Double.isNaN(meanSquaredError)) {
        text.append(text.length() > 0 ? ", " : "").append(String.format(Locale.ROOT, "mean squared error %.6g", meanSquaredError));
      }
      return text.append(" on ").append(records).append(" records").toString();
    }
  }

  private Evaluation() {}

  /**
   * Logistic: predicts 1 iff x'w &gt; 0 (labels in {0, 1}). Squared: if the labels take two values a &lt; b,
   * predicts b iff x'w &gt; (a + b)/2; the mean squared error always.
   */
  public static Metrics of(LabelledData data, double[] w, ErmSettings.Loss loss) {
    double[] values = data.distinctLabels();
    int correct = 0;
    double squared = 0;
    for (int i = 0; i < data.size(); i++) {
      double margin = 0;
      for (int j = 0; j < w.length; j++) {
        margin += data.feature(i, j) * w[j];
      }
      double y = data.label(i);
      if (loss == ErmSettings.Loss.LOGISTIC) {
        correct += (margin > 0) == (y > 0.5) ? 1 : 0;
      } else {
        squared += (margin - y) * (margin - y);
        if (values.length == 2) {
          double threshold = (values[0] + values[1]) / 2;
          correct += (margin > threshold) == (y > threshold) ? 1 : 0;
        }
      }
    }
    int n = data.size();
    double accuracy = loss == ErmSettings.Loss.LOGISTIC || values.length == 2 ? (double) correct / n : Double.NaN;
    double mse = loss == ErmSettings.Loss.SQUARED ? squared / n : Double.NaN;
    return new Metrics(accuracy, mse, n);
  }

  /**
   * Held-out accuracy of always predicting the majority label of {@code train} (ties: the larger label), for
   * binary labels; NaN otherwise. Not private: a reference for the data owner.
   */
  public static double majorityClassAccuracy(LabelledData train, LabelledData test) {
    double[] values = train.distinctLabels();
    if (values.length != 2 || test == null || test.size() == 0) {
      return Double.NaN;
    }
    int larger = 0;
    for (int i = 0; i < train.size(); i++) {
      larger += train.label(i) == values[1] ? 1 : 0;
    }
    double majority = 2 * larger >= train.size() ? values[1] : values[0];
    int correct = 0;
    for (int i = 0; i < test.size(); i++) {
      correct += test.label(i) == majority ? 1 : 0;
    }
    return (double) correct / test.size();
  }
}
