package org.dpstream.core.online;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.privacy.accounting.GaussianZcdpMap;
import org.dpstream.core.privacy.accounting.SensitivityStructure;
import org.dpstream.core.privacy.accounting.TreeHorizon;
import org.dpstream.core.state.NoiseLaw;
import org.junit.jupiter.api.Test;

/** Every plan calibrated for k participations of one person (OnlineModelSpec.participations). */
class PersonLevelPlansTest {

  private static final double RADIUS = 2;

  private static OnlineModelSpec spec(String id, double p, long horizon, AccountantChoice accountant) {
    OnlineTestData data = new OnlineTestData(4, p, RADIUS, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(31));
    return data.spec(id, p, RADIUS, 1, horizon, accountant);
  }

  /**
   * One sample's leaf sensitivity, 2 (C + slack) rounded up at C = 1, and a person's k samples as one leaf: k times
   * it, rounded up; one participation is one sample, unrounded. Asked directly, not through the plans chosen once
   * per spec.
   */
  @Test
  void aPersonsSensitivityIsKSamplesRoundedUp() {
    OnlineModelSpec event = spec("leaf", 1.5, 100, AccountantChoice.FACTORIZATION)
        .withIncrementClipping(IncrementClipping.fixed(1));
    double slack = 0x1p-30;
    double sample = PrefixSumPlan.l2LeafSensitivity(event, slack);
    assertTrue(sample >= 2 * (1 + slack));
    // the increment bound carries the clipper's exact-norm margin, 2^-40 relative
    assertEquals(2 * (1 + slack), sample, 4 * 0x1p-40);
    assertEquals(sample, PrefixSumPlan.l2PersonSensitivity(event, slack));
    assertEquals(Math.nextUp(3 * sample), PrefixSumPlan.l2PersonSensitivity(event.withParticipations(3), slack));
  }

  @Test
  void theTreeIsCalibratedToTheWorstSetOfKLeavesWithOneLeafsSensitivity() {
    OnlineModelSpec event = spec("tree", 1.5, 1000, AccountantChoice.ZCDP);
    OnlineModelSpec person = event.withParticipations(5);
    GaussianZcdpMap one = (GaussianZcdpMap) PrefixSumPlan.choose(event).calibration();
    GaussianZcdpMap five = (GaussianZcdpMap) PrefixSumPlan.choose(person).calibration();
    assertEquals(one.l2Sensitivity(), five.l2Sensitivity());
    double phiFive = SensitivityStructure.tree(new TreeHorizon(1000), 5).largestBound();
    assertEquals(phiFive, five.structure().largestBound());
    // sigma = S sqrt(Phi / (2 rho)): the ratio is sqrt(Phi_5 / Phi_1), up to the calibration's rounding
    assertEquals(Math.sqrt(phiFive / one.structure().largestBound()), five.sigma() / one.sigma(), 1e-9);
    assertTrue(five.sigma() < 5 * one.sigma(), "below the group-privacy calibration k sigma");
  }

  @Test
  void theSquareRootsPersonSensitivityCoversEveryKColumnsByBruteForce() {
    int n = 12;
    OnlineModelSpec event = spec("sqrt", 1.5, n, AccountantChoice.FACTORIZATION).withIncrementClipping(
        IncrementClipping.fixed(1));
    GaussianZcdpMap one = (GaussianZcdpMap) PrefixSumPlan.choose(event).calibration();
    // the square root of the prefix-sum matrix: lower-triangular Toeplitz, r_0 = 1, r_j = r_(j-1) (2j - 1) / (2j)
    double[] r = new double[n];
    r[0] = 1;
    for (int j = 1; j < n; j++) {
      r[j] = r[j - 1] * (2 * j - 1) / (2 * j);
    }
    for (int k = 1; k <= 4; k++) {
      GaussianZcdpMap person = (GaussianZcdpMap) PrefixSumPlan.choose(event.withParticipations(k)).calibration();
      double worst = worstSumOfColumns(r, k);
      double claimed = person.l2Sensitivity() * person.l2Sensitivity() * person.structure().largestBound();
      double actual = one.l2Sensitivity() * one.l2Sensitivity() * worst;
      assertTrue(actual <= claimed, "k=" + k + ": " + actual + " > " + claimed);
      // consecutive participations are nearly parallel: the triangle inequality is within a factor 1.6 here
      assertTrue(claimed <= 1.6 * actual, "k=" + k);
    }
  }

  /** max over k-subsets of columns of ||sum of the columns||^2, for the Toeplitz matrix with first column r. */
  private static double worstSumOfColumns(double[] r, int k) {
    int n = r.length;
    double best = 0;
    for (int set = 0; set < 1 << n; set++) {
      if (Integer.bitCount(set) != k) {
        continue;
      }
      double[] sum = new double[n];
      for (int column = 0; column < n; column++) {
        if ((set >> column & 1) != 0) {
          for (int row = column; row < n; row++) {
            sum[row] += r[row - column];
          }
        }
      }
      best = Math.max(best, Arrays.stream(sum).map(x -> x * x).sum());
    }
    return best;
  }

  @Test
  void theBltAndAdaptiveClippingGrowTheirNoiseWithK() {
    OnlineModelSpec blt = spec("blt", 1.5, 2000, AccountantChoice.BLT);
    GaussianZcdpMap one = (GaussianZcdpMap) PrefixSumPlan.choose(blt).calibration();
    GaussianZcdpMap three = (GaussianZcdpMap) PrefixSumPlan.choose(blt.withParticipations(3)).calibration();
    assertEquals(3, three.l2Sensitivity() / one.l2Sensitivity(), 1e-12);
    assertEquals(3, three.sigma() / one.sigma(), 1e-9);

    OnlineModelSpec adaptive = spec("adaptive", 1.5, 2000, AccountantChoice.ZCDP)
        .withIncrementClipping(IncrementClipping.adaptive(0.9, 0.05));
    AdaptiveClipPlan adaptiveOne = assertInstanceOf(AdaptiveClipPlan.class, PrefixSumPlan.choose(adaptive));
    AdaptiveClipPlan adaptiveThree =
        assertInstanceOf(AdaptiveClipPlan.class, PrefixSumPlan.choose(adaptive.withParticipations(3)));
    assertEquals(3, adaptiveThree.histogramSigma() / adaptiveOne.histogramSigma(), 1e-9);
    assertEquals(adaptiveOne.budget().quantileRho(), adaptiveThree.budget().quantileRho(), 1e-9);
    assertEquals(3, adaptiveThree.epoch(0).spec().participations());
    assertTrue(((GaussianZcdpMap) adaptiveThree.epoch(0).plan().calibration()).sigma()
        > 2 * ((GaussianZcdpMap) adaptiveOne.epoch(0).plan().calibration()).sigma(), "the epoch's noise grows with k");
  }

  /**
   * The exact BLT: k replaced leaves move the rounded rows by at most k times one leaf's shift (rounding included),
   * so the map's sensitivity is k S over one sample's widened column norms, and sigma grows by k.
   */
  @Test
  void theExactBltIsCalibratedForKTimesOneSamplesShiftRoundingIncluded() {
    OnlineModelSpec exact = spec("exact-blt", 1.5, 2000, AccountantChoice.BLT).withNoise(NoiseChoice.DISCRETE);
    ExactBltPlan one = assertInstanceOf(ExactBltPlan.class, PrefixSumPlan.choose(exact));
    ExactBltPlan three = assertInstanceOf(ExactBltPlan.class, PrefixSumPlan.choose(exact.withParticipations(3)));
    GaussianZcdpMap oneMap = (GaussianZcdpMap) one.calibration();
    GaussianZcdpMap threeMap = (GaussianZcdpMap) three.calibration();
    assertEquals(3, threeMap.l2Sensitivity() / oneMap.l2Sensitivity(), 1e-12);
    assertEquals(3, threeMap.sigma() / oneMap.sigma(), 1e-9);
  }

  @Test
  void dpPofwsUtilitySensitivityGrowsByK() {
    OnlineModelSpec pofw = spec("pofw", 1, 1000, AccountantChoice.ZCDP);
    VertexChoice.Gumbel one = assertInstanceOf(VertexChoice.Gumbel.class, VertexChoice.build(pofw));
    VertexChoice.Gumbel four = assertInstanceOf(VertexChoice.Gumbel.class, VertexChoice.build(pofw.withParticipations(4)));
    for (long t : new long[] {1, 10, 1000}) {
      assertEquals(4, four.calibration().gumbelScaleAt(t) / one.calibration().gumbelScaleAt(t), 1e-9);
      assertEquals(one.calibration().perStepEpsilon(t), four.calibration().perStepEpsilon(t), 1e-12);
    }
  }

  @Test
  void theSpecsFingerprintAndNoiseLawNameKAtPersonLevelOnly() {
    OnlineModelSpec event = spec("law", 1.5, 1000, AccountantChoice.ZCDP);
    assertArrayEquals(event.fingerprint(), event.withParticipations(1).fingerprint());
    assertFalse(Arrays.equals(event.fingerprint(), event.withParticipations(2).fingerprint()));
    byte[] eventLaw = DpTofw.lawOf(event, PrefixSumPlan.choose(event));
    OnlineModelSpec person = event.withParticipations(2);
    assertFalse(Arrays.equals(eventLaw, DpTofw.lawOf(person, PrefixSumPlan.choose(person))));
    // The event-level law is the prefix sums' law alone, as before person-level privacy was named in it; the
    // person-level law adds k to the same prefix sums' law.
    assertArrayEquals(NoiseLaw.of(DpTofw.ALGORITHM).law("prefix sums", PrefixSumPlan.choose(event).noiseLaw(event))
        .digest(), eventLaw);
    byte[] personPrefixSums = PrefixSumPlan.choose(person).noiseLaw(person);
    assertFalse(Arrays.equals(NoiseLaw.of(DpTofw.ALGORITHM).law("prefix sums", personPrefixSums).digest(),
        DpTofw.lawOf(person, PrefixSumPlan.choose(person))));
  }

  @Test
  void thePapersAccountantIsEventLevelOnlyAndAutoTakesTheZcdpTreeForPersons() {
    OnlineModelSpec paper = spec("paper", 1.5, 1000, AccountantChoice.PAPER);
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> paper.withParticipations(2));
    assertTrue(refused.getMessage().contains("zCDP"), refused.getMessage());
    OnlineModelSpec auto = spec("auto", 1.5, 1000, AccountantChoice.AUTO)
        .withParticipations(2);
    assertTrue(PrefixSumPlan.choose(auto).calibration().accountant().startsWith("zcdp"));
  }
}
