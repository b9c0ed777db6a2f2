package org.dpstream.core.online;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.privacy.accounting.AdaptiveClipBudget;
import org.dpstream.core.privacy.accounting.GaussianTreeCalibration;
import org.dpstream.core.privacy.factorization.SqrtFactorizationCalibration;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;

/** Adaptive clipping: its schedule, histogram, budget split, per-block sensitivity, ledger and replay. */
class AdaptiveClipTest {

  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(91));

  private static OnlineModelSpec adaptiveSpec(OnlineTestData data, long horizon, AccountantChoice accountant) {
    return data.spec("adaptive", 1.5, 2, 1, horizon, accountant).withIncrementClipping(IncrementClipping.ADAPTIVE);
  }

  /** Adaptive clipping at epsilon 1000 over an epoch of 4096: blocks of 128, 128, 256, ..., 2048. */
  private static OnlineModelSpec nearlyNoiseless(OnlineTestData data) {
    return data.spec("adaptive", 1.5, 2, 1000, 4096, AccountantChoice.ZCDP).withIncrementClipping(IncrementClipping.ADAPTIVE);
  }

  /** The warm-up of about n / 32, then blocks of an eighth of it, doubling: c, c, 2c, 4c, ... */
  @Test
  void blocksStartShortAfterTheWarmUpAndDouble() {
    ClipBlockSchedule schedule = ClipBlockSchedule.forHorizon(10_000);
    assertEquals("blocks[256, 288, 320, 384, 512, 768, 1280, 2304, 4352, 8448, 10000]", schedule.toString());
    long[] lengths = {256, 32, 32, 64, 128, 256, 512, 1024, 2048, 4096, 1552};
    assertEquals(lengths.length, schedule.blockCount());
    for (int k = 0; k < lengths.length; k++) {
      assertEquals(lengths[k], schedule.length(k), "block " + k);
    }
    assertEquals(8448, schedule.start(10));
    assertEquals(0, schedule.blockOf(1));
    assertEquals(0, schedule.blockOf(256));
    assertEquals(1, schedule.blockOf(257));
    assertEquals(2, schedule.blockOf(289));
    assertEquals(10, schedule.blockOf(10_000));
    assertEquals("blocks[2, 4, 6, 8]", ClipBlockSchedule.forHorizon(8).toString());
    assertEquals("blocks[2, 4, 6, 9]", ClipBlockSchedule.forHorizon(9).toString()); // no one-step last block
    assertEquals("blocks[2, 4, 6, 10]", ClipBlockSchedule.forHorizon(10).toString());
    assertEquals("blocks[2, 4]", ClipBlockSchedule.forHorizon(4).toString());
    // 256 / 32 = 8, c = max(2, 8 / 8 = 1) = 2
    assertEquals("blocks[8, 10, 12, 16, 24, 40, 72, 136, 256]", ClipBlockSchedule.forHorizon(256).toString());
    assertThrows(IllegalArgumentException.class, () -> ClipBlockSchedule.forHorizon(3));
    assertThrows(IllegalArgumentException.class, () -> schedule.blockOf(10_001));
    assertThrows(IllegalArgumentException.class, () -> schedule.blockOf(0));
  }

  @Test
  void theThresholdIsTheHistogramsQuantileInterpolatedWithinItsBin() {
    NormQuantileHistogram histogram = NormQuantileHistogram.start(8, 0.5, 0);
    assertEquals(8, histogram.threshold()); // C_0 before any release
    assertEquals(0, histogram.binOf(100)); // above C_0: the top bin
    assertEquals(0, histogram.binOf(7)); // log2(8/7) = 0.19: half-octave 0
    assertEquals(2, histogram.binOf(3.5)); // 2 log2(8/3.5) = 2.39
    assertEquals(4, histogram.binOf(1.5)); // 2 log2(8/1.5) = 4.83
    assertEquals(31, histogram.binOf(8 * Math.pow(2, -15.9)));
    assertEquals(32, histogram.binOf(8 * Math.pow(2, -16)));
    assertEquals(32, histogram.binOf(0));
    for (double norm : new double[] {7, 3.5, 3.5, 1.5}) {
      histogram.record(norm);
    }
    assertEquals(8, histogram.threshold()); // nothing released yet
    histogram.releaseBlock(null);
    assertEquals(4, histogram.pooledSamples());
    // Half of 4 above: 1 in bin 0, then bin 2 (upper edge 4) holds 2 and the crossing is half-way into it:
    // 4 * 2^(-0.5 / 2).
    assertEquals(3.363585661014858, histogram.threshold(), 1e-15);
    histogram.record(0);
    histogram.record(0);
    histogram.record(0);
    histogram.record(0);
    histogram.releaseBlock(null);
    // 8 samples, 4 above: bins 0 and 2 hold 3, bin 4 (upper edge 2) holds the fourth, all of it.
    assertEquals(2 * Math.pow(2, -0.5), histogram.threshold(), 1e-15);
  }

  @Test
  void theClipRateIsTheLastReleasedBlocksShareAboveAThreshold() {
    NormQuantileHistogram histogram = NormQuantileHistogram.start(8, 0.5, 0);
    histogram.record(7); // bin 0
    assertTrue(Double.isNaN(histogram.lastBlockShareAbove(4)), "nothing released yet");
    for (double norm : new double[] {3.5, 3.5, 1.5}) { // bins 2, 2, 4
      histogram.record(norm);
    }
    histogram.releaseBlock(null);
    assertEquals(0, histogram.lastBlockShareAbove(8));
    assertEquals(0.25, histogram.lastBlockShareAbove(4)); // bins 0 and 1 lie above 4
    assertEquals(0.75, histogram.lastBlockShareAbove(2)); // bins 0 to 3
    // Half-way (geometrically) into bin 2, (2 sqrt 2, 4]: half of its two samples, as threshold() interpolates.
    assertEquals(0.5, histogram.lastBlockShareAbove(4 * Math.pow(2, -0.25)), 1e-15);
    for (int i = 0; i < 4; i++) {
      histogram.record(0);
    }
    histogram.releaseBlock(null);
    assertEquals(0, histogram.lastBlockShareAbove(8 * Math.pow(2, -16)), "only the last block counts");
  }

  /**
   * The model's released clipping rate is NaN until a block's histogram is released, then follows the share of the
   * finished block's increments clipped at its threshold. At epsilon 1000 the histogram's noise (sigma_h about 3
   * per bin) on the ten or so bins above the threshold of the smallest block (128 samples) has a standard deviation
   * of about sqrt(10) 3 / 128 = 0.074 on the share: the tolerance is under three of them, which also covers the
   * interpolation within the half-octave bin that holds the threshold.
   */
  @Test
  void theReleasedClipRateFollowsTheShareOfEachFinishedBlockClipped() {
    OnlineTestData data = new OnlineTestData(5, 1.5, 2, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(6));
    OnlineModelSpec spec = nearlyNoiseless(data);
    DpTofw model = DpTofw.start(spec, SOURCE);
    ClipBlockSchedule schedule = ((AdaptiveClipPlan) model.plan()).schedule();
    int clippedInBlock = 0;
    int block = 0;
    for (long t = 1; t <= 4096; t++) {
      double[] x = data.features();
      StepOutcome outcome = model.step(x, data.label(x));
      if (outcome.gradientClipped()) {
        clippedInBlock++;
      }
      boolean lastOfBlock = t == schedule.start(block) + schedule.length(block);
      if (block == 0 && !lastOfBlock) {
        assertTrue(Double.isNaN(outcome.releasedClipRate()), "step " + t);
      }
      if (lastOfBlock) {
        double exact = (double) clippedInBlock / schedule.length(block);
        assertTrue(outcome.releasedClipRate() >= 0 && outcome.releasedClipRate() <= 1);
        if (block > 0) {
          assertEquals(exact, outcome.releasedClipRate(), 0.2, "block " + block);
        }
        clippedInBlock = 0;
        block++;
      }
    }
  }

  @Test
  void whenNoiseHidesTheCrossingTheThresholdIsTheLowestEdge() {
    NormQuantileHistogram histogram = NormQuantileHistogram.start(8, 0.5, 0);
    histogram.record(0);
    histogram.record(0);
    histogram.releaseBlock(null);
    assertEquals(8 * Math.pow(2, -16), histogram.threshold());
  }

  @Test
  void noisyHistogramsAreTheCountsPlusKeyedGaussianNoise() {
    NormQuantileHistogram noisy = NormQuantileHistogram.start(8, 0.5, 10);
    noisy.record(3.5);
    noisy.releaseBlock(SOURCE.forStream("test", "h").at(0, 0));
    double[] pooled = noisy.pooled();
    double[] expected = new double[NormQuantileHistogram.BINS];
    org.dpstream.core.privacy.noise.IidVectorNoise.gaussian(NormQuantileHistogram.BINS, 10)
        .sample(SOURCE.forStream("test", "h").at(0, 0), expected);
    expected[2] += 1;
    assertArrayEquals(expected, pooled);
  }

  /** noise: discrete: the bins' noise is the exact discrete Gaussian from the same keyed bits, read through RandomBits. */
  @Test
  void discreteHistogramsAreTheCountsPlusExactIntegerNoise() {
    NormQuantileHistogram noisy = NormQuantileHistogram.start(8, 0.5, 22.19, NoiseChoice.DISCRETE);
    noisy.record(3.5);
    noisy.releaseBlock(SOURCE.forStream("test", "h").at(0, 0));
    double[] pooled = noisy.pooled();
    org.dpstream.core.privacy.noise.RandomBits bits =
        org.dpstream.core.privacy.noise.RandomBits.of(SOURCE.forStream("test", "h").at(0, 0));
    org.dpstream.core.privacy.noise.DiscreteGaussian bin = org.dpstream.core.privacy.noise.DiscreteGaussian.ofSigma(22.19);
    for (int j = 0; j < NormQuantileHistogram.BINS; j++) {
      assertEquals(bin.sample(bits) + (j == 2 ? 1 : 0), pooled[j], 0.0, "bin " + j);
    }
  }

  /**
   * The discrete bins' noise has variance sigma_h^2 (the discrete Gaussian's variance equals sigma^2 up to
   * exp(-2 pi^2 sigma^2) at sigma = 22): 300 blocks of 33 bins, 5 standard errors (rate below 1e-6).
   */
  @Test
  void discreteHistogramNoiseHasTheCalibratedVariance() {
    double sigma = 22.19;
    int blocks = 300;
    double sumSquares = 0;
    for (int b = 0; b < blocks; b++) {
      NormQuantileHistogram noisy = NormQuantileHistogram.start(8, 0.5, sigma, NoiseChoice.DISCRETE);
      noisy.releaseBlock(SOURCE.forStream("test", "variance").at(0, b));
      for (double value : noisy.pooled()) {
        assertEquals(Math.rint(value), value, 0.0, "an integer");
        sumSquares += value * value;
      }
    }
    int n = blocks * NormQuantileHistogram.BINS;
    double variance = sigma * sigma;
    assertEquals(variance, sumSquares / n, 5 * variance * Math.sqrt(2.0 / n));
  }

  /**
   * Each epoch has one mechanism: the fixed-clip plan at threshold 1 (the leaves are divided by their block's
   * threshold) with the block budget, over the epoch's leaves (n minus the warm-up in the first epoch).
   */
  @Test
  void eachEpochIsTheUnitClipPlanOverItsLeavesWithTheBlockBudget() {
    OnlineTestData data = new OnlineTestData(5, 1.5, 2, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(1));
    OnlineModelSpec spec = adaptiveSpec(data, 10_000, AccountantChoice.ZCDP);
    AdaptiveClipPlan plan = AdaptiveClipPlan.of(spec);
    assertEquals(256, plan.warmUpSteps());
    assertEquals(10_000 - 256, plan.epoch(0).spec().horizon());
    assertEquals(10_000, plan.epoch(1).spec().horizon());
    assertEquals(10_000, plan.epoch(7).spec().horizon());
    assertEquals(1, plan.mechanismStep(0, 257));
    assertEquals(257, plan.mechanismStep(1, 257));
    for (long e : new long[] {0, 1}) {
      AdaptiveClipPlan.Epoch epoch = plan.epoch(e);
      assertEquals(IncrementClipping.fixed(1), epoch.spec().incrementClipping());
      assertEquals(plan.budget().blockBudget(), epoch.calibration().zcdpBudget());
      assertEquals(spec.budget(), epoch.spec().budget()); // the ledger's (epsilon, delta), the model's
      GaussianTreeCalibration calibration = (GaussianTreeCalibration) epoch.calibration();
      // Sensitivity 2 plus the lattice slack (about 2^-30) and the float margin: within 1e-8 of 2.
      assertEquals(2, calibration.l2Sensitivity(), 2e-8);
      assertTrue(calibration.l2Sensitivity() > 2);
      // sigma = S sqrt(h / (2 rho_b)) with h = 15 levels for 9744 or 10^4 leaves.
      assertEquals(calibration.l2Sensitivity() * Math.sqrt(15 / (2 * plan.budget().blockRho())), calibration.nodeSigma(),
          1e-9 * calibration.nodeSigma());
    }
    // auto with continuous noise takes the BLT where it predicts less error than the zCDP tree, as a model without
    // adaptive clipping does, and with discrete noise the exact BLT likewise.
    AdaptiveClipPlan auto = AdaptiveClipPlan.of(adaptiveSpec(data, 10_000, AccountantChoice.AUTO));
    assertInstanceOf(BltPlan.class, auto.epoch(0).plan());
    assertEquals(plan.budget().blockBudget(), auto.epoch(0).calibration().zcdpBudget());
    AdaptiveClipPlan autoDiscrete =
        AdaptiveClipPlan.of(adaptiveSpec(data, 10_000, AccountantChoice.AUTO).withNoise(NoiseChoice.DISCRETE));
    assertInstanceOf(ExactBltPlan.class, autoDiscrete.epoch(1).plan());
    // The factorization plugs in the same way.
    AdaptiveClipPlan factorization = AdaptiveClipPlan.of(adaptiveSpec(data, 10_000, AccountantChoice.FACTORIZATION));
    SqrtFactorizationCalibration epochCalibration = (SqrtFactorizationCalibration) factorization.epoch(0).calibration();
    assertEquals(9744, epochCalibration.horizon());
    assertEquals(2, epochCalibration.l2Sensitivity(), 2e-8);
    // C_0 is the worst-case bound of ||g||_q = L + beta D carried to l2: ||v||_2 <= d^(1/2 - 1/3) ||v||_3 at p = 1.5.
    assertEquals(Math.pow(5, 1.0 / 6) * spec.clipBounds().incrementBound(), plan.initialThreshold(), 1e-12);
  }

  /**
   * The release is G at the block's start plus the threshold times the epoch mechanism's increment over the block:
   * without noise (eps = 10^9 makes the tree's noise below its lattice's half unit) the releases are the prefix sums of
   * the clipped increments, within the lattice's rounding, across block boundaries where the threshold changes.
   */
  @Test
  void theReleasesAreThePrefixSumsOfTheIncrementsClippedToTheirBlocksThresholds() {
    OnlineTestData data = new OnlineTestData(3, 1.5, 2, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(6));
    OnlineModelSpec spec = data.spec("sums", 1.5, 2, 1e15, 64, AccountantChoice.ZCDP)
        .withIncrementClipping(IncrementClipping.ADAPTIVE);
    AdaptiveClipPlan plan = AdaptiveClipPlan.of(spec);
    AdaptiveClipPrefixSums sums = (AdaptiveClipPrefixSums) plan.start(spec, SOURCE);
    sums.warmUp(0.3);
    sums.warmUp(3);
    double[] exact = new double[3];
    double[] release = new double[3];
    java.util.Set<Double> thresholds = new java.util.HashSet<>();
    org.apache.commons.rng.UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(7);
    for (int t = 3; t <= 64; t++) {
      double c = sums.threshold();
      thresholds.add(c);
      double[] leaf = {rng.nextDouble() - 0.5, rng.nextDouble() - 0.5, rng.nextDouble() - 0.5};
      org.dpstream.core.geometry.NormClipper.of(org.dpstream.core.geometry.LpNorm.L2, c).clipInPlace(leaf);
      sums.recordNorm(0.1 + rng.nextDouble());
      sums.addAndRelease(leaf, release);
      for (int j = 0; j < 3; j++) {
        exact[j] += leaf[j];
        assertEquals(exact[j], release[j], 1e-5, "t=" + t);
      }
    }
    assertTrue(thresholds.size() >= 2, "the threshold changed between blocks: " + thresholds);
  }

  @Test
  void thePaperAccountantAndShortHorizonsAreRefused() {
    OnlineTestData data = new OnlineTestData(5, 1.5, 2, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(1));
    IllegalArgumentException paper = assertThrows(IllegalArgumentException.class,
        () -> AdaptiveClipPlan.of(adaptiveSpec(data, 100, AccountantChoice.PAPER)));
    assertTrue(paper.getMessage().contains("accountant"), paper.getMessage());
    assertThrows(IllegalArgumentException.class, () -> AdaptiveClipPlan.of(adaptiveSpec(data, 3, AccountantChoice.ZCDP)));
  }

  @Test
  void theWarmUpOnlySpendsTheHistogramAndTheLedgerThenTheEpochsMechanism() {
    OnlineTestData data = new OnlineTestData(5, 1.5, 2, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(2));
    OnlineModelSpec spec = adaptiveSpec(data, 64, AccountantChoice.ZCDP); // blocks [2, 4, 6, 10, 18, 34, 64]
    DpTofw model = DpTofw.start(spec, SOURCE);
    AdaptiveClipPlan plan = (AdaptiveClipPlan) model.plan();
    AdaptiveClipBudget split = plan.budget();
    double[] x = data.features();
    model.step(x, data.label(x));
    assertArrayEquals(new double[5], model.parameters()); // the warm-up releases nothing new
    assertEquals(split.spent(0).epsilon(), model.ledger().spentEpsilon());
    x = data.features();
    model.step(x, data.label(x));
    assertEquals(split.spent(0).epsilon(), model.ledger().spentEpsilon());
    x = data.features();
    model.step(x, data.label(x)); // the first step of block 1 (2 steps): the epoch tree's first release
    assertFalse(java.util.Arrays.equals(new double[5], model.parameters()));
    double rhoFirstRelease = plan.epoch(0).calibration().rhoAfter(1);
    assertEquals(split.spent(rhoFirstRelease).epsilon(), model.ledger().spentEpsilon(), 1e-12);
    for (int t = 4; t <= 64; t++) {
      x = data.features();
      model.step(x, data.label(x));
    }
    // The epoch's full rho plus the histogram's: the tree of 62 leaves (7 levels) at rho_b.
    double fullEpoch = plan.epoch(0).calibration().rhoAfter(62);
    assertEquals(split.spent(fullEpoch).epsilon(), model.ledger().spentEpsilon(), 1e-9);
    assertTrue(model.ledger().spentEpsilon() <= 1);
    assertEquals(0, model.epoch());
    assertEquals("dp-tofw/zcdp-cks20-adaptive-clip(7 blocks, C0=" + plan.initialThreshold() + ", sigma_h="
        + split.histogramSigma() + ")/zcdp-cks20/clip(l_2.0, adaptive balanced, share=0.05)", model.mechanism());
    AdaptiveClipPlan exact = AdaptiveClipPlan.of(plan.spec().withNoise(NoiseChoice.DISCRETE));
    assertEquals("zcdp-cks20-adaptive-clip(7 blocks, C0=" + plan.initialThreshold() + ", sigma_h="
        + split.histogramSigma() + ")/zcdp-cks20/discrete-gaussian", exact.describe());
  }

  @Test
  void theThresholdFollowsTheNormsAfterTheWarmUp() {
    OnlineTestData data = new OnlineTestData(5, 1.5, 2, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(4));
    OnlineModelSpec spec = nearlyNoiseless(data);
    DpTofw model = DpTofw.start(spec, SOURCE);
    AdaptiveClipPrefixSums sums = (AdaptiveClipPrefixSums) ((AdaptiveClipPlan) model.plan()).start(spec, SOURCE);
    double initial = ((AdaptiveClipPlan) model.plan()).initialThreshold();
    assertEquals(initial, sums.threshold());
    assertTrue(sums.warmingUp());
    assertEquals(128, sums.warmUpSteps());
    for (int t = 0; t < 128; t++) {
      sums.warmUp(0.5 * initial / 16); // four octaves below C_0: bin 8 (upper edge C_0 / 16) at its lowest part
    }
    assertFalse(sums.warmingUp());
    // 128 samples at one norm, noise sigma_h ~ 3 at eps = 1000: the median lies in bin 8 or next to it.
    assertTrue(sums.threshold() < initial / 8 && sums.threshold() > initial / 64, "threshold " + sums.threshold());
    assertThrows(IllegalStateException.class, () -> sums.warmUp(1));
    assertThrows(IllegalStateException.class, () -> sums.addAndRelease(new double[5], new double[5]));
  }

  @Test
  void resumedFromItsStateAnywhereTheReleasesAreBitIdentical() throws IOException {
    // auto (BLT blocks), the factorization, and auto with exact noise (exact BLT blocks, discrete histogram).
    for (int variant = 0; variant < 3; variant++) {
      AccountantChoice accountant = variant == 1 ? AccountantChoice.FACTORIZATION : AccountantChoice.AUTO;
      OnlineTestData data = new OnlineTestData(5, 1.5, 2, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(3));
      OnlineModelSpec spec = adaptiveSpec(data, 64, accountant)
          .withNoise(variant == 2 ? NoiseChoice.DISCRETE : NoiseChoice.CONTINUOUS);
      // past the horizon of 64: three epochs, the later ones without warm-up
      ResumeRuns.Stream stream = ResumeRuns.draw(data, 200);
      OnlineEstimator straight = OnlineEstimators.start(spec, SOURCE);
      double[][] expected = ResumeRuns.straightReleases(straight, stream, s -> { });
      assertEquals(3, straight.epoch());
      assertEquals(3, straight.ledger().epoch(), "the ledger counts the epochs its releases were accounted in");
      for (int crash : new int[] {0, 1, 2, 3, 5, 16, 63, 64, 65, 66, 130, 199}) {
        OnlineEstimator first = OnlineEstimators.start(spec, new KeyedNoiseSource(TestKeys.seeded(91)));
        ResumeRuns.stepThrough(first, stream, crash);
        byte[] state = ResumeRuns.state(first);
        OnlineEstimator resumed = ResumeRuns.restore(spec, state, new KeyedNoiseSource(TestKeys.seeded(91)));
        assertEquals(first.ledger(), resumed.ledger());
        assertArrayEquals(state, ResumeRuns.state(resumed), "state written again after " + crash);
        ResumeRuns.assertContinuesStraight(resumed, stream, crash, expected, accountant + ", ");
        assertEquals(straight.ledger(), resumed.ledger());
      }
    }
  }

  @Test
  void anotherQuantileIsAnotherSpecAndItsStateIsRefused() throws IOException {
    OnlineTestData data = new OnlineTestData(5, 1.5, 2, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(5));
    OnlineModelSpec spec = adaptiveSpec(data, 64, AccountantChoice.ZCDP);
    OnlineModelSpec other = spec.withIncrementClipping(IncrementClipping.adaptive(0.9, 0.05));
    assertNotEquals(java.util.Arrays.toString(spec.fingerprint()), java.util.Arrays.toString(other.fingerprint()));
    OnlineEstimator model = OnlineEstimators.start(spec, SOURCE);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    model.writeState(new DataOutputStream(bytes));
    assertThrows(IOException.class, () -> OnlineEstimators.restore(other,
        new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())), SOURCE));
  }

  /**
   * A state read back is checked field by field: a valid one at the edges (threshold at its initial value during the
   * warm-up, an epoch's last step) restores; an unknown version, a negative epoch or step, a step beyond the
   * horizon, fewer total steps than in the epoch, a threshold of 0 or above the initial one, a non-finite sum or bin,
   * a negative count or number of samples is refused with an IOException.
   */
  @Test
  void aCorruptStateIsRefusedAndAValidOneAtItsEdgesIsRead() throws IOException {
    OnlineTestData data = new OnlineTestData(3, 1.5, 2, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(8));
    OnlineModelSpec spec = data.spec("corrupt", 1.5, 2, 1e15, 64, AccountantChoice.ZCDP)
        .withIncrementClipping(IncrementClipping.ADAPTIVE);
    AdaptiveClipPlan plan = AdaptiveClipPlan.of(spec);
    AdaptiveClipPrefixSums sums = (AdaptiveClipPrefixSums) plan.start(spec, SOURCE);
    sums.warmUp(0.3);
    byte[] warmingUp = stateOf(sums);
    assertEquals(plan.initialThreshold(), ((AdaptiveClipPrefixSums) readState(plan, spec, warmingUp)).threshold());
    sums.warmUp(3);
    double[] release = new double[3];
    for (int t = 3; t <= 64; t++) {
      sums.recordNorm(0.5);
      sums.addAndRelease(new double[] {0.01, -0.02, 0.03}, release);
    }
    byte[] epochEnd = stateOf(sums);
    assertEquals(64, readState(plan, spec, epochEnd).totalSteps());
    int histogram = 1 + 3 * Long.BYTES + Double.BYTES + 2 * 3 * Double.BYTES;
    int pooled = histogram + NormQuantileHistogram.BINS * Long.BYTES;
    int samples = pooled + NormQuantileHistogram.BINS * Double.BYTES;
    assertRefused(plan, spec, patched(epochEnd, 0, new byte[] {99}));
    assertRefused(plan, spec, patchedLong(epochEnd, 1, -1)); // epoch
    assertRefused(plan, spec, patchedLong(epochEnd, 9, -1)); // steps in the epoch
    assertRefused(plan, spec, patchedLong(epochEnd, 9, 65));
    assertRefused(plan, spec, patchedLong(epochEnd, 17, 63)); // total steps
    for (double threshold : new double[] {0, Double.NaN, Math.nextUp(plan.initialThreshold())}) {
      assertRefused(plan, spec, patchedDouble(warmingUp, 25, threshold));
    }
    assertRefused(plan, spec, patchedDouble(epochEnd, 33, Double.NaN)); // released sum
    assertRefused(plan, spec, patchedDouble(epochEnd, 33 + 3 * Double.BYTES, Double.POSITIVE_INFINITY)); // block start
    assertRefused(plan, spec, patchedLong(epochEnd, histogram, -1));
    assertRefused(plan, spec, patchedDouble(epochEnd, pooled, Double.NaN));
    assertRefused(plan, spec, patchedLong(epochEnd, samples, -1));
  }

  private static byte[] stateOf(AdaptiveClipPrefixSums sums) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    sums.writeTo(new DataOutputStream(bytes));
    return bytes.toByteArray();
  }

  private static org.dpstream.core.privacy.PrivatePrefixSums readState(AdaptiveClipPlan plan, OnlineModelSpec spec,
      byte[] state) throws IOException {
    return plan.restore(spec, new DataInputStream(new ByteArrayInputStream(state)), SOURCE);
  }

  private static void assertRefused(AdaptiveClipPlan plan, OnlineModelSpec spec, byte[] state) {
    assertThrows(IOException.class, () -> readState(plan, spec, state));
  }

  private static byte[] patched(byte[] state, int offset, byte[] bytes) {
    byte[] copy = state.clone();
    System.arraycopy(bytes, 0, copy, offset, bytes.length);
    return copy;
  }

  private static byte[] patchedLong(byte[] state, int offset, long value) {
    return patched(state, offset, java.nio.ByteBuffer.allocate(Long.BYTES).putLong(value).array());
  }

  private static byte[] patchedDouble(byte[] state, int offset, double value) {
    return patched(state, offset, java.nio.ByteBuffer.allocate(Double.BYTES).putDouble(value).array());
  }
}
