package org.dpstream.bandit.linear;

/**
 * What DP-Linear publishes after a release: the per-arm ridge solutions theta_k (post-processing of the
 * privately released statistics) and the release step. {@link LinearDecisionRule#greedyArm} decides
 * from exactly this.
 *
 * @param step releases so far (0: nothing released, every theta_k is 0)
 * @param rounds the rounds the release covers (step times the refresh period)
 * @param theta theta_k of each arm (copies)
 */
public record DpLinearRelease(long step, long rounds, double[][] theta) {

  /** The arm this release chooses for a context. */
  public int decide(double[] context) {
    return LinearDecisionRule.greedyArm(theta, step, context);
  }
}
