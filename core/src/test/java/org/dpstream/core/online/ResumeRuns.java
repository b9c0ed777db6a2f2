package org.dpstream.core.online;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.function.Consumer;
import org.dpstream.core.privacy.random.KeyedNoiseSource;

/**
 * The pieces the estimators' resume-anywhere tests share: a stream drawn up front, the releases of a straight
 * run, a run's state written and restored, and the check that a restored run continues the straight one bit
 * for bit.
 */
final class ResumeRuns {

  private ResumeRuns() {}

  /** Samples x_t, y_t drawn in order. */
  record Stream(double[][] xs, double[] ys) {
    int steps() {
      return ys.length;
    }
  }

  static Stream draw(OnlineTestData data, int steps) {
    double[][] xs = new double[steps][];
    double[] ys = new double[steps];
    for (int t = 0; t < steps; t++) {
      xs[t] = data.features();
      ys[t] = data.label(xs[t]);
    }
    return new Stream(xs, ys);
  }

  /** Steps {@code estimator} through samples [0, count). */
  static void stepThrough(OnlineEstimator estimator, Stream stream, int count) {
    for (int t = 0; t < count; t++) {
      estimator.step(stream.xs()[t], stream.ys()[t]);
    }
  }

  /** The parameters after every step of {@code straight} over the whole stream; {@code afterStep} checks each. */
  static double[][] straightReleases(OnlineEstimator straight, Stream stream, Consumer<OnlineEstimator> afterStep) {
    double[][] releases = new double[stream.steps()][];
    for (int t = 0; t < stream.steps(); t++) {
      straight.step(stream.xs()[t], stream.ys()[t]);
      releases[t] = straight.parameters();
      afterStep.accept(straight);
    }
    return releases;
  }

  static byte[] state(OnlineEstimator estimator) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    estimator.writeState(new DataOutputStream(bytes));
    return bytes.toByteArray();
  }

  static OnlineEstimator restore(OnlineModelSpec spec, byte[] state, KeyedNoiseSource source) throws IOException {
    return OnlineEstimators.restore(spec, new DataInputStream(new ByteArrayInputStream(state)), source);
  }

  /** Steps {@code resumed} from {@code crash} to the end: each release must be the straight run's, bit for bit. */
  static void assertContinuesStraight(OnlineEstimator resumed, Stream stream, int crash, double[][] expected,
      String label) {
    for (int t = crash; t < stream.steps(); t++) {
      resumed.step(stream.xs()[t], stream.ys()[t]);
      assertArrayEquals(expected[t], resumed.parameters(), label + "crash after " + crash + ", step " + (t + 1));
    }
  }
}
