package org.dpstream.core.privacy.recorder;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpstream.core.geometry.LpNorm;
import org.dpstream.core.geometry.NormClipper;
import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/** The recorder catches each kind of violation it exists for, and passes a correct mechanism. */
class SensitivityRecorderTest {

  private static final double CLIP = 1;

  /** The Gaussian mechanism on one clipped vector: returns its pre-noise value (and adds noise, to be recorded). */
  private static double[] gaussian(double[] x, KeyedNoiseSource source, double clipAt, boolean dataDependentDraws) {
    double[] clipped = new double[x.length];
    NormClipper.of(LpNorm.L2, clipAt).clip(x, clipped);
    IidVectorNoise noise = IidVectorNoise.gaussian(x.length, 1);
    double[] draw = new double[x.length];
    UniformRandomProvider bits = source.forStream("toy", "m").at(0, 0);
    noise.sample(bits, draw);
    if (dataDependentDraws && clipped[0] > 0) {
      bits.nextLong(); // one value more for some data: the draws' lengths depend on it
    }
    return clipped;
  }

  private static SensitivityRecorder<double[], double[]> recorder(double clipAt, boolean dataDependentDraws) {
    return SensitivityRecorder.of((x, source) -> gaussian(x, source, clipAt, dataDependentDraws),
        (a, b) -> List.of(new Measurement("clipped vector, l2", SensitivityRecorder.l2Distance(a, b), 2 * CLIP,
            SensitivityRecorder.l2DistanceRounding(a.length, 2 * CLIP))));
  }

  @Test
  void aCorrectMechanismPasses() {
    List<Measurement> measured = recorder(CLIP, false).check(new double[] {5, 0}, new double[] {-5, 0});
    assertTrue(measured.get(0).measured() > 2 * CLIP * (1 - 1e-12), "the worst pair reaches 2C: " + measured);
  }

  @Test
  void aSensitivityLargerThanDeclaredIsCaught() {
    AssertionFailedError failure = assertThrows(AssertionFailedError.class,
        () -> recorder(2 * CLIP, false).check(new double[] {5, 0}, new double[] {-5, 0}));
    assertTrue(failure.getMessage().contains("sensitivity exceeded"), failure.getMessage());
  }

  @Test
  void drawsThatDependOnTheDataAreCaught() {
    AssertionFailedError failure = assertThrows(AssertionFailedError.class,
        () -> recorder(CLIP, true).check(new double[] {5, 0}, new double[] {-5, 0}));
    assertTrue(failure.getMessage().contains("noise draws depend on the data"), failure.getMessage());
  }

  @Test
  void aCoordinateThatDependsOnTheDataIsCaught() {
    SensitivityRecorder<double[], double[]> recorder = SensitivityRecorder.of((x, source) -> {
      source.forStream("toy", "m").at(0, x[0] > 0 ? 1 : 0).nextLong();
      return x;
    }, (a, b) -> List.of(new Measurement("x", 0, 1, 0)));
    assertThrows(AssertionFailedError.class, () -> recorder.check(new double[] {1}, new double[] {-1}));
  }

  @Test
  void aNanMeasurementIsAViolation() {
    assertTrue(!new Measurement("nan", Double.NaN, 1, 1).holds());
  }
}
