package org.dpstream.bench.common;

/** Mean and sample standard deviation. */
public final class Stats {

  private Stats() {}

  public static double mean(double[] values) {
    if (values.length == 0) {
      throw new IllegalArgumentException("no values");
    }
    double sum = 0;
    for (double v : values) {
      sum += v;
    }
    return sum / values.length;
  }

  /** Sample standard deviation (divisor n - 1); 0 for a single value. */
  public static double std(double[] values) {
    if (values.length < 2) {
      return 0;
    }
    double mean = mean(values);
    double sum = 0;
    for (double v : values) {
      sum += (v - mean) * (v - mean);
    }
    return Math.sqrt(sum / (values.length - 1));
  }
}
