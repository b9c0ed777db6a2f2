package org.dpstream.bandit.linear;

/**
 * DP-Linear's decision: greedy argmax_k theta_k' x over the released per-arm ridge solutions. A pure
 * function of (released parameters, release step, context), so any process holding a release (a decider
 * reading dp.releases) decides exactly as the policy does. It reads no private state: other users'
 * decisions are post-processing of the release, and a user's own context only decides for that user.
 *
 * <p>Ties (exactly equal scores, e.g. every arm before the first release, when all theta_k are 0) are
 * broken deterministically by a hash of the context's bits and the step, so a policy with nothing learnt
 * spreads contexts over the arms instead of sending all of them to arm 0. The hash is no randomness:
 * the same inputs give the same arm everywhere.
 */
public final class LinearDecisionRule {

  private LinearDecisionRule() {}

  /**
   * @param theta the released theta_k of each arm (each of the context's length)
   * @param step the release the parameters come from (0 before the first)
   * @param context x, finite
   * @return the arm in [0, K)
   * @throws IllegalArgumentException on no arms, a length mismatch or a non-finite context value
   */
  public static int greedyArm(double[][] theta, long step, double[] context) {
    if (theta.length == 0) {
      throw new IllegalArgumentException("need at least one arm");
    }
    for (int j = 0; j < context.length; j++) {
      if (!Double.isFinite(context[j])) {
        throw new IllegalArgumentException("context[" + j + "] is not finite: " + context[j]);
      }
    }
    double best = Double.NEGATIVE_INFINITY;
    int ties = 0;
    for (double[] armTheta : theta) {
      double score = score(armTheta, context);
      if (score > best) {
        best = score;
        ties = 1;
      } else if (score == best) {
        ties++;
      }
    }
    int pick = ties == 1 ? 0 : (int) Long.remainderUnsigned(tieHash(context, step), ties);
    for (int k = 0; k < theta.length; k++) {
      if (score(theta[k], context) == best && pick-- == 0) {
        return k;
      }
    }
    throw new AssertionError("unreachable: a best arm exists");
  }

  /** theta' x; a non-finite product (parameters too large) scores as -infinity so it is never preferred. */
  static double score(double[] theta, double[] context) {
    if (theta.length != context.length) {
      throw new IllegalArgumentException("context has dimension " + context.length + ", the parameters " + theta.length);
    }
    double sum = 0;
    for (int j = 0; j < context.length; j++) {
      sum += theta[j] * context[j];
    }
    return Double.isNaN(sum) ? Double.NEGATIVE_INFINITY : sum;
  }

  /** SplitMix64's finaliser over the context's bits and the step. */
  static long tieHash(double[] context, long step) {
    long h = step * 0x9E3779B97F4A7C15L;
    for (double value : context) {
      h = mix(h ^ Double.doubleToLongBits(value == 0 ? 0.0 : value)); // -0.0 and 0.0 hash alike
    }
    return mix(h);
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
