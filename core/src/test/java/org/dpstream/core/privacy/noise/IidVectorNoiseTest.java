package org.dpstream.core.privacy.noise;

import static org.dpstream.core.privacy.noise.NoiseTestSupport.seeded;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The laws of {@link IidVectorNoise} are drawn from the bits exactly as the samplers they replaced drew them. */
class IidVectorNoiseTest {

  @Test
  void theGaussianDrawsTheScalarSamplersDrawsFromTheSameBits() {
    // What the tree's former GaussianVectorNoise drew: one scalar Gaussian per coordinate, in order, so
    // replacing it changed no release.
    double[] iid = new double[5];
    IidVectorNoise.gaussian(5, 0.7).sample(seeded(7), iid);
    var scalar = ScalarSamplers.gaussian(seeded(7), 0.7);
    double[] expected = new double[5];
    for (int i = 0; i < expected.length; i++) {
      expected[i] = scalar.sample();
    }
    assertArrayEquals(expected, iid);
  }

  @Test
  void eachLawScalesTheSameScalarDraws() {
    // Laplace: the scalar sampler at the scale; Gumbel: -b ln(E) with E the Ziggurat exponential.
    double[] laplace = new double[4];
    IidVectorNoise.laplace(4, 2.5).sample(seeded(8), laplace);
    var scalar = ScalarSamplers.laplace(seeded(8), 2.5);
    for (double v : laplace) {
      assertEquals(scalar.sample(), v);
    }
    double[] gumbel = new double[3];
    IidVectorNoise.gumbel(3, 1.7).sample(seeded(9), gumbel);
    var exponential = org.apache.commons.rng.sampling.distribution.ZigguratSampler.Exponential.of(seeded(9));
    for (double v : gumbel) {
      assertEquals(-1.7 * Math.log(exponential.sample()), v);
    }
  }

  @Test
  void parametersAreNamedAndChecked() {
    assertEquals(IidVectorNoise.Law.GUMBEL, IidVectorNoise.gumbel(2, 3).law());
    assertEquals(3, IidVectorNoise.gumbel(2, 3).scale());
    assertEquals("sigma must be finite and > 0, got 0.0",
        assertThrows(IllegalArgumentException.class, () -> IidVectorNoise.gaussian(2, 0)).getMessage());
    assertEquals("scale must be finite and > 0, got Infinity", assertThrows(IllegalArgumentException.class,
        () -> IidVectorNoise.gumbel(2, Double.POSITIVE_INFINITY)).getMessage());
    assertEquals("dimension must be > 0, got 0",
        assertThrows(IllegalArgumentException.class, () -> IidVectorNoise.laplace(0, 1)).getMessage());
  }

  @Test
  void theConstantNoiseIsItsValuesAndReadsNoBits() {
    double[] out = {9, 9, 9};
    ConstantVectorNoise.zero(3).sample(null, out);
    assertArrayEquals(new double[] {0, 0, 0}, out);
    double[] values = {1.5, -2};
    ConstantVectorNoise constant = ConstantVectorNoise.of(values);
    values[0] = 7; // copied
    double[] drawn = new double[2];
    constant.sample(null, drawn);
    assertArrayEquals(new double[] {1.5, -2}, drawn);
    assertEquals(2, constant.dimension());
    assertThrows(IllegalArgumentException.class, () -> constant.sample(null, new double[3]));
    assertThrows(IllegalArgumentException.class, () -> ConstantVectorNoise.zero(0));
    assertEquals("constant(NOT PRIVATE, [1.5, -2.0])", constant.describe());
    assertEquals(constant.describe(), constant.toString());
  }
}
