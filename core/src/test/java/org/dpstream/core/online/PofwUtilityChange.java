package org.dpstream.core.online;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import org.dpstream.core.privacy.accounting.ExponentialMechanismCalibration;
import org.dpstream.core.privacy.accounting.PrivacyCalibration;
import org.dpstream.core.privacy.accounting.ReportNoisyMaxCalibration;

/**
 * What DP-POFW adds noise to, for the sensitivity recorders (its own, and DP-HDB's arms in the bandit module): the
 * vertex utilities u(+-r e_j) = -+r d_j with d = (sum of earlier increments + g) / (k + 1). Given the past outputs the
 * earlier increments and the iterates are the same for neighbours, so replacing the sample of step k moves every
 * utility by r |Delta g_j| / (k + 1), g computed by DP-POFW's own clipping ({@link ClippedIncrement}).
 */
public final class PofwUtilityChange {

  private PofwUtilityChange() {}

  /**
   * The largest change of a vertex utility at step k of an epoch between two samples (features then label), at the
   * public state (current, previous) of the iterates.
   */
  public static double measured(OnlineModelSpec spec, double[] current, double[] previous, long k, double[] sample,
      double[] other) {
    double[] a = increment(spec, current, previous, k, sample);
    double[] b = increment(spec, current, previous, k, other);
    double largest = 0;
    for (int j = 0; j < a.length; j++) {
      largest = Math.max(largest, Math.abs(a[j] - b[j]));
    }
    return spec.domain().radius() * largest / (k + 1);
  }

  /**
   * Delta_k, the utility sensitivity the spec's vertex choice is calibrated for, times (1 + 2^-50) for the rounding of
   * reading it back: the exponential mechanism's beta_k epsilon_k / 2 (beta_k = 2 Delta_k / epsilon_k rounded up), or
   * the Laplace report-noisy-min's D (beta D + L) / (k + 1).
   */
  public static double declared(OnlineModelSpec spec, long k) {
    PrivacyCalibration calibration = VertexChoice.of(spec).calibration();
    double delta;
    if (calibration instanceof ExponentialMechanismCalibration exponential) {
      delta = exponential.gumbelScaleAt(k) * exponential.perStepEpsilon(k) / 2;
    } else {
      ReportNoisyMaxCalibration laplace = (ReportNoisyMaxCalibration) calibration;
      delta = laplace.diameter() * (laplace.smoothness() * laplace.diameter() + laplace.lipschitz()) / (k + 1);
    }
    return delta * (1 + 0x1p-50);
  }

  /** The rounding of {@link #measured}: a difference and a quotient, 4 ulps of the result. */
  public static double rounding(double measured) {
    return 4 * Math.ulp(measured);
  }

  private static double[] increment(OnlineModelSpec spec, double[] current, double[] previous, long k,
      double[] sample) {
    int d = spec.dimension();
    double[] g = new double[d];
    new ClippedIncrement(spec).compute(iterates(current, previous), Arrays.copyOf(sample, d), sample[d], k, g);
    return g;
  }

  private static FrankWolfeIterates iterates(double[] current, double[] previous) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      StateCodec.writeVector(out, current);
      StateCodec.writeVector(out, previous);
      return FrankWolfeIterates.readFrom(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())),
          current.length);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
