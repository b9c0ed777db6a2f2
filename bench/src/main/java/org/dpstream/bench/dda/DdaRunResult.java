package org.dpstream.bench.dda;

import org.dpstream.core.distributed.DpDdaPrivacyReport;

/**
 * One run of the dda experiment.
 *
 * @param iota node sampling ratio
 * @param epsilon the target epsilon sigma was calibrated for
 * @param seed data shuffle and noise key
 * @param rounds T
 * @param checkpointRounds rounds at which the suboptimality was recorded
 * @param trajectory F(model) - F* at those rounds
 * @param testAccuracy of the final model
 * @param seconds wall time of the run
 * @param privacy the guarantee actually obtained
 */
record DdaRunResult(double iota, double epsilon, long seed, long rounds, long[] checkpointRounds, double[] trajectory,
    double testAccuracy, double seconds, DpDdaPrivacyReport privacy) {

  double suboptimality() {
    return trajectory[trajectory.length - 1];
  }
}
