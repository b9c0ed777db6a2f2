package org.dpstream.core.privacy.audit;

import java.util.Objects;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * A randomised mechanism under audit whose release is a vector, such as a noisy prefix sum of
 * gradients. {@link #projectedOnto} turns it into the scalar {@link AuditedMechanism} the auditor
 * needs. Same contract as {@link AuditedMechanism}: independent runs, randomness only from {@code rng}.
 */
@FunctionalInterface
public interface AuditedVectorMechanism {

  /**
   * Runs the mechanism once.
   *
   * @param neighbour false to run on the original input D, true on the neighbouring input D'
   * @param rng the only source of randomness the run may use
   * @return this run's release; the caller may not keep it
   */
  double[] run(boolean neighbour, UniformRandomProvider rng);

  /**
   * The audit statistic {@code <release, direction>}.
   *
   * <p>Use the difference of the noiseless releases, f(D') - f(D), as the direction: with isotropic
   * Gaussian noise the projection on it is a sufficient statistic for telling D from D', so no
   * threshold test on the full vector is more powerful. Any positive multiple of the direction gives
   * the same audit, because the auditor only compares the statistic with thresholds.
   *
   * <p>To test whether clipping works, project on the direction of the <em>unclipped</em>
   * difference: it is what a mechanism that skips the clip would leak.
   *
   * @param direction a vector of the release's dimension; copied
   */
  default AuditedMechanism projectedOnto(double[] direction) {
    double[] fixedDirection = Objects.requireNonNull(direction, "direction").clone();
    return (neighbour, rng) -> {
      double[] release = run(neighbour, rng);
      if (release.length != fixedDirection.length) {
        throw new IllegalArgumentException(
            "release has dimension " + release.length + ", direction " + fixedDirection.length);
      }
      double projection = 0;
      for (int i = 0; i < release.length; i++) {
        projection += release[i] * fixedDirection[i];
      }
      return projection;
    };
  }
}
