package org.dpstream.core.privacy.audit;

import org.apache.commons.rng.UniformRandomProvider;

/**
 * A randomised mechanism under audit, seen through one scalar statistic of its output.
 *
 * <p>The test that wraps a real mechanism fixes two neighbouring inputs, D and D', and returns from
 * {@link #run} a statistic of one release. The auditor only ever compares threshold events on that
 * statistic, so the statistic should separate the two output distributions well: for additive noise
 * it is the projection of the release on the difference f(D') - f(D) (see {@link
 * AuditedVectorMechanism#projectedOnto}). A weak statistic does not make the audit wrong, only blunt.
 *
 * <p>Contract: every run is independent and draws all of its randomness from {@code rng}, so an audit
 * with a seeded provider is reproducible. Implementations must not keep state between runs.
 */
@FunctionalInterface
public interface AuditedMechanism {

  /**
   * Runs the mechanism once and reduces its output to a scalar.
   *
   * @param neighbour false to run on the original input D, true on the neighbouring input D'
   * @param rng the only source of randomness the run may use
   * @return the statistic of this run's output; never NaN
   */
  double run(boolean neighbour, UniformRandomProvider rng);
}
