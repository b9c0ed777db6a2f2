package org.dpstream.core.privacy.noise;

import static org.dpstream.core.privacy.noise.NoiseTestSupport.seeded;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The {@link VectorNoise} contract, checked on every implementation of this package. */
class VectorNoiseContractTest {

  static Stream<Arguments> implementations() {
    return Stream.of(
        Arguments.of(IidVectorNoise.gaussian(7, 3.1), List.of("gaussian", "d=7", "sigma=3.1")),
        Arguments.of(IidVectorNoise.laplace(5, 0.25), List.of("laplace", "d=5", "scale=0.25")),
        Arguments.of(IidVectorNoise.gaussian(6, 2.5), List.of("gaussian", "d=6", "sigma=2.5")),
        Arguments.of(IidVectorNoise.gumbel(3, 1.7), List.of("gumbel", "d=3", "scale=1.7")),
        Arguments.of(
            GeneralizedGaussianNoise.ofLqPlus(9, 1.5, 2.0),
            List.of("generalizedGaussian", "d=9", "q+=1.5", "sigma+=2.0")),
        Arguments.of(
            GeneralizedGaussianNoise.ofLqPlus(4, 0.3, 0.5),
            List.of("generalizedGaussian", "d=4", "q+=0.3", "sigma+=0.5")),
        // p = 4, d = 16: norm scale c = 16^(1/4) = 2, so sigma = 6 / 2.
        Arguments.of(
            GeneralizedGaussianNoise.ofRescaledL2(16, 4, 6),
            List.of("gaussian", "d=16", "sigma=3.0")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("implementations")
  void sameBitsGiveSameVectorAndOtherBitsAnother(VectorNoise noise) {
    double[] first = new double[noise.dimension()];
    double[] replay = new double[noise.dimension()];
    double[] other = new double[noise.dimension()];
    noise.sample(seeded(42), first);
    noise.sample(seeded(42), replay);
    noise.sample(seeded(43), other);
    assertArrayEquals(first, replay);
    assertFalse(Arrays.equals(first, other));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("implementations")
  void sampleOverwritesEveryCoordinateWithAFiniteValue(VectorNoise noise) {
    double[] out = new double[noise.dimension()];
    Arrays.fill(out, Double.NaN);
    noise.sample(seeded(44), out);
    assertTrue(Arrays.stream(out).allMatch(Double::isFinite), Arrays.toString(out));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("implementations")
  void describeNamesTheParameters(VectorNoise noise, List<String> expectedParts) {
    for (String part : expectedParts) {
      assertTrue(noise.describe().contains(part), () -> noise.describe() + " lacks " + part);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("implementations")
  void rejectsOutOfWrongLength(VectorNoise noise) {
    int d = noise.dimension();
    for (double[] wrong : List.of(new double[d - 1], new double[d + 1])) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> noise.sample(seeded(45), wrong));
      String expected = "out.length must equal dimension " + d + ", got " + wrong.length;
      assertEquals(expected, e.getMessage());
    }
    assertThrows(NullPointerException.class, () -> noise.sample(seeded(45), null));
  }
}
