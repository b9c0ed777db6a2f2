package org.dpstream.core.privacy.factorization;

import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpstream.core.privacy.noise.VectorNoise;

/** Test seam: noise that is always zero, so releases must be the exact prefix sums. Never private. */
final class ZeroVectorNoise implements VectorNoise {

  private final int dimension;

  ZeroVectorNoise(int dimension) {
    this.dimension = dimension;
  }

  @Override
  public int dimension() {
    return dimension;
  }

  @Override
  public void sample(UniformRandomProvider bits, double[] out) {
    Arrays.fill(out, 0.0);
  }

  @Override
  public String describe() {
    return "zero(d=" + dimension + ")";
  }
}
