package org.dpstream.core.online;

import org.dpstream.core.geometry.LpBall;
import org.dpstream.core.loss.DataBounds;
import org.dpstream.core.loss.SampleLoss;

/**
 * The bounds every per-sample contribution is clipped to, in the dual norm q (ARCHITECTURE.md 4.1):
 * the gradient term to L, the difference term t (grad f(theta_t) - grad f(theta_{t-1})) to beta D. The
 * sensitivity then holds for any input, whatever the data's real range.
 *
 * @param gradient L
 * @param difference beta D
 */
public record ClipBounds(double gradient, double difference) {

  public ClipBounds {
    if (!(gradient > 0) || !(difference > 0) || Double.isInfinite(gradient) || Double.isInfinite(difference)) {
      throw new IllegalArgumentException(
          "clip bounds must be positive and finite: gradient=" + gradient + ", difference=" + difference);
    }
  }

  /**
   * The bounds the loss guarantees over the domain for data within the declared (public) bounds:
   * L = the loss's Lipschitz bound, beta D = smoothness times the domain's diameter (proof of
   * Theorem 3.1: ||theta_t - theta_{t-1}||_p <= D / t, so t times the gradient change is at most beta D).
   */
  public static ClipBounds derived(SampleLoss loss, LpBall domain, DataBounds data) {
    return new ClipBounds(
        loss.lipschitzBound(domain, data),
        loss.smoothnessBound(domain, data) * domain.diameter());
  }

  /** L + beta D: the dual-norm bound of one clipped increment g_t. */
  public double incrementBound() {
    return Math.nextUp(gradient + difference);
  }
}
