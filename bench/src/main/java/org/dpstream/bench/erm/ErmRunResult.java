package org.dpstream.bench.erm;

/**
 * One run's outcome.
 *
 * @param relativeErrors (F(w_t) - F*) / (F(w0) - F*) after each pass t = 0..passes
 */
record ErmRunResult(String algorithm, String data, String loss, String reg, double epsilon, double delta, long seed,
    int passes, double clip, double stepScale, double[] relativeErrors, double finalObjective, double testAccuracy,
    double seconds, String description) {

  double relativeError() {
    return relativeErrors[relativeErrors.length - 1];
  }
}
