package org.dpstream.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.FreshCaches;
import org.dpstream.core.privacy.accounting.ZcdpBudget;
import org.dpstream.core.privacy.factorization.BltOptimizer;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;

/** A model's plan (its sigma) is calibrated once: validating its spec, starting and restoring it share one plan. */
class ChosenPlansTest {

  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(12));

  @Test
  void startingAndRestoringAModelTakeThePlanItsSpecChose() throws IOException {
    OnlineTestData data = new OnlineTestData(3, 1.5, 2, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(3));
    OnlineModelSpec spec = data.spec("once", 1.5, 2, 1, 64, AccountantChoice.ZCDP)
        .withIncrementClipping(IncrementClipping.ADAPTIVE);
    PrefixSumPlan validated = PrefixSumPlan.choose(spec);
    assertSame(validated, PrefixSumPlan.choose(spec));
    DpTofw model = DpTofw.start(spec, SOURCE);
    assertSame(validated, model.plan());
    double[] x = data.features();
    model.step(x, data.label(x));
    ByteArrayOutputStream state = new ByteArrayOutputStream();
    model.writeState(new DataOutputStream(state));
    DpTofw restored = DpTofw.restore(spec, new DataInputStream(new ByteArrayInputStream(state.toByteArray())), SOURCE);
    assertSame(validated, restored.plan());
  }

  @Test
  void specsThatDifferInAnythingHaveTheirOwnPlans() {
    OnlineTestData data = new OnlineTestData(3, 1.5, 2, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(4));
    OnlineModelSpec spec = data.spec("first", 1.5, 2, 1, 64, AccountantChoice.ZCDP)
        .withIncrementClipping(IncrementClipping.ADAPTIVE);
    // The model id too: an adaptive plan draws its histograms' noise under it.
    assertNotSame(PrefixSumPlan.choose(spec), PrefixSumPlan.choose(data.spec("second", 1.5, 2, 1, 64,
        AccountantChoice.ZCDP).withIncrementClipping(IncrementClipping.ADAPTIVE)));
    assertNotSame(PrefixSumPlan.choose(spec), PrefixSumPlan.choose(spec.withNoise(NoiseChoice.DISCRETE)));
  }

  @Test
  void aFullCacheKeepsThePlansInUseAndNoMoreThanItsBound() {
    OnlineTestData data = new OnlineTestData(3, 1.5, 2, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(5));
    OnlineModelSpec hot = data.spec("hot", 1.5, 2, 1, 64, AccountantChoice.ZCDP);
    // From an empty cache: the other tests of this class leave plans in it, which the bound of 8 would weigh against
    // the hot one before it has been asked for twice.
    ChosenPlans.clearForTests();
    PrefixSumPlan.keepAtMost(8);
    try {
      PrefixSumPlan first = PrefixSumPlan.choose(hot);
      // Three times the bound of other models, the hot one asked for between each: a cache that cleared itself
      // when full (or evicted the oldest entry first) would calibrate the hot model's plan again.
      for (int other = 0; other < 24; other++) {
        PrefixSumPlan.choose(data.spec("cold-" + other, 1.5, 2, 1, 64, AccountantChoice.ZCDP));
        assertSame(first, PrefixSumPlan.choose(hot), "after " + (other + 1) + " other models");
      }
      assertEquals(8, ChosenPlans.size());
    } finally {
      PrefixSumPlan.keepAtMost(ChosenPlans.DEFAULT_CAPACITY);
    }
  }

  @Test
  void testsCanEmptyTheCachesSoThatNoPlanOutlivesTheCodeThatBuiltIt() {
    OnlineTestData data = new OnlineTestData(3, 1.5, 2, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(6));
    OnlineModelSpec spec = data.spec("fresh", 1.5, 2, 1, 64, AccountantChoice.ZCDP);
    PrefixSumPlan.keepAtMost(8);
    PrefixSumPlan cached = PrefixSumPlan.choose(spec);
    BltPlan blt = BltPlan.of(spec, ZcdpBudget.of(spec.budget()));
    var strategy = BltOptimizer.forHorizon(64);
    FreshCaches.clearAll();
    assertEquals(0, ChosenPlans.size());
    assertNotSame(cached, PrefixSumPlan.choose(spec));
    assertNotSame(blt, BltPlan.of(spec, ZcdpBudget.of(spec.budget())));
    assertNotSame(strategy, BltOptimizer.forHorizon(64));
    // and the bound is the default again: more than 8 plans stay
    for (int other = 0; other < 12; other++) {
      PrefixSumPlan.choose(data.spec("more-" + other, 1.5, 2, 1, 64, AccountantChoice.ZCDP));
    }
    assertEquals(13, ChosenPlans.size());
  }

  @Test
  void theCacheKeepsAtLeastOnePlan() {
    assertThrows(IllegalArgumentException.class, () -> PrefixSumPlan.keepAtMost(0));
    try {
      PrefixSumPlan.keepAtMost(1);
      OnlineTestData data = new OnlineTestData(3, 1.5, 2, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(5));
      PrefixSumPlan.choose(data.spec("one", 1.5, 2, 1, 64, AccountantChoice.ZCDP));
      PrefixSumPlan.choose(data.spec("two", 1.5, 2, 1, 64, AccountantChoice.ZCDP));
      assertEquals(1, ChosenPlans.size());
    } finally {
      PrefixSumPlan.keepAtMost(ChosenPlans.DEFAULT_CAPACITY);
    }
  }

  @Test
  void aChosenPlansNoiseLawIsComputedOnceAndAnotherPlansEveryTime() {
    OnlineTestData data = new OnlineTestData(3, 1.5, 2, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(6));
    OnlineModelSpec spec = data.spec("law", 1.5, 2, 1, 64, AccountantChoice.ZCDP);
    PrefixSumPlan chosen = PrefixSumPlan.choose(spec);
    int[] computed = {0};
    java.util.function.Supplier<byte[]> law = () -> {
      computed[0]++;
      return DpTofw.lawOf(spec, chosen);
    };
    byte[] first = ChosenPlans.law(spec, chosen, "test-algorithm", law);
    first[0] ^= 1; // the caller's copy: changing it changes no later answer
    byte[] second = ChosenPlans.law(spec, chosen, "test-algorithm", law);
    assertEquals(1, computed[0]);
    org.junit.jupiter.api.Assertions.assertArrayEquals(DpTofw.lawOf(spec, chosen), second);

    PrefixSumPlan notChosen = PrefixSumPlan.choose(spec.withNoise(NoiseChoice.DISCRETE));
    ChosenPlans.law(spec, notChosen, "test-algorithm", law);
    ChosenPlans.law(spec, notChosen, "test-algorithm", law);
    assertEquals(3, computed[0], "a plan the spec did not choose is never answered from the cache");
  }
}
