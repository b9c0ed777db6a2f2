package org.dpstream.core.online;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpstream.core.geometry.LpBall;
import org.dpstream.core.loss.DataBounds;
import org.dpstream.core.loss.GlmLoss;
import org.dpstream.core.privacy.accounting.GaussianTreeCalibration;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.noise.TabulatedDiscreteGaussian;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.testing.TestKeys;
import org.dpstream.core.privacy.tree.DiscreteGaussianNodeNoise;
import org.junit.jupiter.api.Test;

/** The option {@code noise: discrete}: which plan it selects, its accounting by hand, and what it refuses. */
class DiscreteTreeNoiseTest {

  private static final PrivacyBudget BUDGET = new PrivacyBudget(1, 1e-5);
  /** Data bounds that clip none of the samples here: the clip bounds above are what is calibrated. */
  private static final DataBounds WIDE = new DataBounds(1000, 1000);

  /** d = 2, p = 2, L = 1, beta D = 0.5, n = 8: every number below can be followed by hand. */
  private static OnlineModelSpec spec(AccountantChoice accountant, NoiseChoice noise) {
    return new OnlineModelSpec("hand", 2, GlmLoss.squared(), LpBall.of(2, 1), BUDGET, 8, new ClipBounds(1, 0.5),
        accountant, WIDE).withNoise(noise);
  }

  /**
   * By hand: C = L + beta D = 1.5 (one ulp up, then the 2^-40 float margin); the lattice keeps 30 bits
   * of C, gamma = 2^(0 - 30); rounding a 2-vector moves it by at most (gamma / 2) sqrt(2) in l2; the
   * leaves of neighbours differ by S = 2 (C + gamma sqrt(2) / 2) = 3 + 2^-30 sqrt(2) + O(2^-40). With h
   * = log2(8) + 1 = 4 nodes per leaf, rho(t = 8) = 4 S^2 / (2 sigma^2) = 2 S^2 / sigma^2. In lattice
   * units the shift is S / gamma and the noise sigma / gamma: the same rho, since the discrete Gaussian's
   * zCDP bound for integer shifts is the continuous one (CKS20).
   */
  @Test
  void discreteNoiseIsTheZcdpTreeWithTheSameRhoInLatticeUnits() {
    TreeNoisePlan plan = TreeNoisePlan.choose(spec(AccountantChoice.AUTO, NoiseChoice.DISCRETE));
    assertEquals(NoiseChoice.DISCRETE, plan.sampling());
    GaussianTreeCalibration calibration = (GaussianTreeCalibration) plan.calibration();
    assertEquals(-30, TreeNoisePlan.latticeFor(spec(AccountantChoice.ZCDP, NoiseChoice.DISCRETE)).exponent());
    double handS = 2 * (1.5 + Math.sqrt(2) * 0x1p-31);
    assertEquals(handS, calibration.l2Sensitivity(), 1e-11);
    assertTrue(calibration.l2Sensitivity() >= handS, "the code's S rounds up");
    double sigma = calibration.nodeSigma();
    assertEquals(2 * handS * handS / (sigma * sigma), calibration.rhoAfter(8), 1e-12);
    assertEquals(handS * handS / (2 * sigma * sigma), calibration.rhoAfter(1), 1e-12);

    double sUnits = handS * 0x1p30;
    double sigmaUnits = sigma * 0x1p30;
    assertEquals(calibration.rhoAfter(1), sUnits * sUnits / (2 * sigmaUnits * sigmaUnits), 1e-12);

    // The same calibration as the continuous zCDP tree; the node noise is N_Z(0, n^2), n = ceil(sigma 2^30),
    // whose rho S^2 / (2 (n 2^-30)^2) is at most the accounted one.
    TreeNoisePlan continuous = TreeNoisePlan.choose(spec(AccountantChoice.ZCDP, NoiseChoice.CONTINUOUS));
    assertEquals(((GaussianTreeCalibration) continuous.calibration()).nodeSigma(), sigma);
    DiscreteGaussianNodeNoise nodeNoise = DiscreteGaussianNodeNoise.onLattice(
        new KeyedNoiseSource(TestKeys.seeded(1)).forStream("tree", "hand"), 2, sigma, TreeNoisePlan.latticeFor(
            spec(AccountantChoice.ZCDP, NoiseChoice.DISCRETE)));
    // sigma 2^30 is some 2^33 units: the tabulated sampler, n = ceil(sigma 2^30) rounded up to a multiple of 2^8.
    long wholeUnits = nodeNoise.sigmaUnits();
    assertEquals(0, wholeUnits % 256);
    assertTrue(wholeUnits >= sigmaUnits && wholeUnits - sigmaUnits < 256, wholeUnits + " against " + sigmaUnits);
    assertEquals(wholeUnits, ((TabulatedDiscreteGaussian) nodeNoise.coordinate()).sigma());
    assertTrue(sUnits * sUnits / (2.0 * wholeUnits * wholeUnits) <= calibration.rhoAfter(1), "rounding up costs no rho");
    assertTrue(plan.describe().startsWith("zcdp-cks20/discrete-gaussian(d=2, sigma="), plan.describe());
  }

  @Test
  void discreteAndContinuousAreDifferentSpecsAndTheDefaultIsContinuous() {
    OnlineModelSpec continuous = spec(AccountantChoice.ZCDP, NoiseChoice.CONTINUOUS);
    OnlineModelSpec byDefault = new OnlineModelSpec("hand", 2, GlmLoss.squared(), LpBall.of(2, 1), BUDGET, 8,
        new ClipBounds(1, 0.5), AccountantChoice.ZCDP, WIDE);
    assertArrayEquals(byDefault.fingerprint(), continuous.fingerprint());
    assertFalse(java.util.Arrays.equals(continuous.fingerprint(), continuous.withNoise(NoiseChoice.DISCRETE).fingerprint()));
  }

  /** States of the first discrete sampler (a word per decision) are refused, continuous ones still resume. */
  @Test
  void theFingerprintNamesTheDiscreteSamplersVersion() {
    assertEquals("DISCRETE3", NoiseChoice.DISCRETE.fingerprintToken());
    assertEquals("CONTINUOUS", NoiseChoice.CONTINUOUS.fingerprintToken());
  }

  @Test
  void discreteStepsReplayBitForBitAndDifferFromContinuous() {
    KeyedNoiseSource source = new KeyedNoiseSource(TestKeys.seeded(2));
    OnlineModelSpec discrete = spec(AccountantChoice.ZCDP, NoiseChoice.DISCRETE);
    OnlineEstimator first = OnlineEstimators.start(discrete, source);
    OnlineEstimator again = OnlineEstimators.start(discrete, source);
    OnlineEstimator continuous = OnlineEstimators.start(discrete.withNoise(NoiseChoice.CONTINUOUS), source);
    boolean differs = false;
    for (int t = 0; t < 20; t++) {
      double[] x = {Math.sin(t), Math.cos(t)};
      first.step(x, 0.5);
      again.step(x, 0.5);
      continuous.step(x, 0.5);
      assertArrayEquals(first.parameters(), again.parameters(), "step " + t);
      differs |= !java.util.Arrays.equals(first.parameters(), continuous.parameters());
    }
    assertTrue(differs, "another sampler, other noise");
    assertTrue(first.mechanism().contains("discrete-gaussian"), first.mechanism());
  }

  /** A snapshot holds no noise: the restored tree regenerates the discrete node noise from the key. */
  @Test
  void aRestoredDiscreteModelContinuesBitForBit() throws java.io.IOException {
    KeyedNoiseSource source = new KeyedNoiseSource(TestKeys.seeded(3));
    OnlineModelSpec discrete = spec(AccountantChoice.AUTO, NoiseChoice.DISCRETE);
    OnlineEstimator uninterrupted = OnlineEstimators.start(discrete, source);
    OnlineEstimator interrupted = OnlineEstimators.start(discrete, source);
    for (int t = 0; t < 20; t++) { // 20 steps over horizon 8: three epochs
      double[] x = {Math.sin(t), Math.cos(t)};
      uninterrupted.step(x, 0.5);
      interrupted.step(x, 0.5);
      if (t == 10) {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        interrupted.writeState(new java.io.DataOutputStream(bytes));
        interrupted = OnlineEstimators.restore(discrete,
            new java.io.DataInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray())), source);
      }
      assertArrayEquals(uninterrupted.parameters(), interrupted.parameters(), "step " + (t + 1));
    }
  }

  @Test
  void discreteIsRefusedWhereItCannotBeExact() {
    IllegalArgumentException paper = assertThrows(IllegalArgumentException.class,
        () -> spec(AccountantChoice.PAPER, NoiseChoice.DISCRETE));
    assertTrue(paper.getMessage().startsWith("noise: discrete needs accountant zcdp or auto (or blt for p > 1), got paper"),
        paper.getMessage());
    assertThrows(IllegalArgumentException.class, () -> spec(AccountantChoice.FACTORIZATION, NoiseChoice.DISCRETE));
    IllegalArgumentException pOnePaper = assertThrows(IllegalArgumentException.class,
        () -> new OnlineModelSpec("hand", 2, GlmLoss.squared(), LpBall.of(1, 1), BUDGET, 8, new ClipBounds(1, 0.5),
            AccountantChoice.PAPER, WIDE).withNoise(NoiseChoice.DISCRETE));
    assertTrue(pOnePaper.getMessage().startsWith("noise: discrete needs accountant zcdp or auto (or blt for p > 1), got paper"));
    // epsilon = delta = 1e-9 over n = 2^40 puts sigma above 2^23 clip bounds: beyond 2^53 units of a 2^-30 lattice.
    OnlineModelSpec tiny = new OnlineModelSpec("hand", 2, GlmLoss.squared(), LpBall.of(2, 1),
        new PrivacyBudget(1e-9, 1e-9), 1L << 40, new ClipBounds(1, 0.5), AccountantChoice.ZCDP, WIDE)
        .withNoise(NoiseChoice.DISCRETE);
    IllegalArgumentException range = assertThrows(IllegalArgumentException.class, () -> TreeNoisePlan.choose(tiny));
    assertTrue(range.getMessage().startsWith("noise: discrete needs the node sigma below 2^53 units"), range.getMessage());
  }
}
