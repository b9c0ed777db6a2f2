package org.dpstream.core.privacy.noise;

import static org.dpstream.core.privacy.noise.NoiseTestSupport.assertFitsCdf;
import static org.dpstream.core.privacy.noise.NoiseTestSupport.draw;
import static org.dpstream.core.privacy.noise.NoiseTestSupport.seeded;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.DoubleUnaryOperator;
import java.util.stream.Stream;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.statistics.distribution.GammaDistribution;
import org.apache.commons.statistics.distribution.LaplaceDistribution;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class ScalarSamplersTest {

  private static final int N = 20_000;

  // Every KS assertion below uses ALPHA = 1e-4: with its fixed seed each test is deterministic; a
  // fresh seed would make a correct sampler fail it with probability 1e-4.
  private static final double ALPHA = 1e-4;

  @Test
  void gaussianMatchesNormalCdf() {
    double[] sample = draw(ScalarSamplers.gaussian(seeded(11), 2.5), N);
    assertFitsCdf(sample, NormalDistribution.of(0, 2.5)::cumulativeProbability, ALPHA, "normal");
  }

  @Test
  void laplaceMatchesLaplaceCdf() {
    double[] sample = draw(ScalarSamplers.laplace(seeded(12), 1.7), N);
    assertFitsCdf(sample, LaplaceDistribution.of(0, 1.7)::cumulativeProbability, ALPHA, "laplace");
  }

  @ParameterizedTest
  @ValueSource(doubles = {0.1, 0.5, 1, 2.5, 30})
  void gammaMatchesGammaCdf(double shape) {
    double[] sample = draw(ScalarSamplers.gamma(seeded(13), shape, 1.7), N);
    GammaDistribution expected = GammaDistribution.of(shape, 1.7);
    assertFitsCdf(sample, expected::cumulativeProbability, ALPHA, "gamma shape " + shape);
  }

  @Test
  void generalizedNormalWithShapeOneIsLaplaceWithScaleAlpha() {
    double[] sample = draw(ScalarSamplers.generalizedNormal(seeded(14), 1, 1.3), N);
    LaplaceDistribution expected = LaplaceDistribution.of(0, 1.3);
    assertFitsCdf(sample, expected::cumulativeProbability, ALPHA, "shape 1");
  }

  @Test
  void generalizedNormalWithShapeTwoIsGaussianWithStdAlphaOverRootTwo() {
    double[] sample = draw(ScalarSamplers.generalizedNormal(seeded(15), 2, 1.3), N);
    NormalDistribution expected = NormalDistribution.of(0, 1.3 / Math.sqrt(2));
    assertFitsCdf(sample, expected::cumulativeProbability, ALPHA, "shape 2");
  }

  /** Shape b = 1.5, alpha = 0.8: |X/alpha|^b ~ Gamma(1/b, 1) (the variable the sampler builds on). */
  @Test
  void generalizedNormalPowerOfShapeOneAndHalfIsGamma() {
    double shape = 1.5;
    double scale = 0.8;
    double[] sample = draw(ScalarSamplers.generalizedNormal(seeded(16), shape, scale), N);
    double[] powered = new double[N];
    for (int i = 0; i < N; i++) {
      powered[i] = Math.pow(Math.abs(sample[i] / scale), shape);
    }
    assertFitsCdf(
        powered, GammaDistribution.of(1 / shape, 1)::cumulativeProbability, ALPHA, "|X/alpha|^1.5");
  }

  /**
   * The same law on X itself, sign included: by symmetry and |X/alpha|^b ~ Gamma(1/b, 1), F(x) =
   * (1 + sgn(x) P(|x/alpha|^b)) / 2 with P the Gamma(1/b, 1) CDF.
   */
  @Test
  void generalizedNormalOfShapeOneAndHalfMatchesDerivedCdf() {
    double shape = 1.5;
    double scale = 0.8;
    GammaDistribution powered = GammaDistribution.of(1 / shape, 1);
    double[] sample = draw(ScalarSamplers.generalizedNormal(seeded(17), shape, scale), N);
    DoubleUnaryOperator derivedCdf =
        x -> 0.5 + 0.5 * Math.signum(x) * powered.cumulativeProbability(Math.pow(Math.abs(x) / scale, shape));
    assertFitsCdf(sample, derivedCdf, ALPHA, "generalized normal b=1.5");
  }

  @Test
  void sameBitsGiveSameDraws() {
    assertArrayEquals(
        draw(ScalarSamplers.generalizedNormal(seeded(18), 1.5, 2), 100),
        draw(ScalarSamplers.generalizedNormal(seeded(18), 1.5, 2), 100));
    assertArrayEquals(
        draw(ScalarSamplers.laplace(seeded(19), 2), 100),
        draw(ScalarSamplers.laplace(seeded(19), 2), 100));
  }

  static Stream<Arguments> badParameters() {
    UniformRandomProvider bits = seeded(20);
    return Stream.of(
        rejects("sigma", () -> ScalarSamplers.gaussian(bits, 0)),
        rejects("sigma", () -> ScalarSamplers.gaussian(bits, Double.NaN)),
        rejects("shape", () -> ScalarSamplers.gamma(bits, -1, 1)),
        rejects("scale", () -> ScalarSamplers.gamma(bits, 1, Double.POSITIVE_INFINITY)),
        rejects("scale", () -> ScalarSamplers.laplace(bits, -0.5)),
        rejects("shape", () -> ScalarSamplers.generalizedNormal(bits, 0, 1)),
        rejects("scale", () -> ScalarSamplers.generalizedNormal(bits, 2, Double.NaN)));
  }

  private static Arguments rejects(String parameter, Executable factory) {
    return Arguments.of(parameter, factory);
  }

  @ParameterizedTest(name = "{index}: {0}")
  @MethodSource("badParameters")
  void rejectsBadParametersNamingThem(String parameter, Executable factory) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, factory);
    assertTrue(
        e.getMessage().startsWith(parameter + " must be finite and > 0, got "), e::getMessage);
  }

  @Test
  void rejectsMissingBits() {
    assertThrows(NullPointerException.class, () -> ScalarSamplers.gaussian(null, 1));
  }
}
