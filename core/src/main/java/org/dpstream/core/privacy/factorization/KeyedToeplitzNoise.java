package org.dpstream.core.privacy.factorization;

import java.util.Arrays;
import org.dpstream.core.privacy.noise.VectorNoise;
import org.dpstream.core.privacy.random.NoiseStream;

/**
 * The correlated noise of the square-root factorization at one step: row t of C z, i.e.
 * sum_{i=1..t} r_{t-i} z_i, where z_i is drawn from {@code distribution} with the keyed bits at coordinates
 * (epoch, i). No z_i is stored: each is regenerated when needed, so this costs t draws but no memory.
 *
 * <p>Determinism: the terms are summed in one fixed order, newest first (k = t - i = 0, 1, .., t - 1), with the
 * weights from {@link PrefixSumSquareRoot#coefficientAfter}, so the same (key, epoch, t) always gives the same
 * doubles, whether computed live, on replay or after a restore.
 *
 * <p>Not thread-safe (a scratch buffer and the stream's cipher are reused): one per stream thread.
 */
final class KeyedToeplitzNoise {

  private final NoiseStream bits;
  private final VectorNoise distribution;
  private final double[] draw;

  KeyedToeplitzNoise(NoiseStream bits, VectorNoise distribution) {
    this.bits = bits;
    this.distribution = distribution;
    this.draw = new double[distribution.dimension()];
  }

  int dimension() {
    return draw.length;
  }

  /** Overwrites {@code out} with sum_{i=1..step} r_{step-i} z_i of this epoch. */
  void rowInto(long epoch, long step, double[] out) {
    Arrays.fill(out, 0.0);
    double weight = 1.0;
    for (long k = 0; k < step; k++) {
      if (k > 0) {
        weight = PrefixSumSquareRoot.coefficientAfter(weight, k);
      }
      distribution.sample(bits.at(epoch, step - k), draw);
      for (int j = 0; j < out.length; j++) {
        out[j] += weight * draw[j];
      }
    }
  }

  String describe() {
    return distribution.describe();
  }
}
