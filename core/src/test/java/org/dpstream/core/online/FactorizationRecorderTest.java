package org.dpstream.core.online;

import static org.dpstream.core.online.PrefixSumRecording.CLIP;
import static org.dpstream.core.online.PrefixSumRecording.DIMENSION;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Function;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.online.PrefixSumRecording.Neighbours;
import org.dpstream.core.privacy.accounting.GaussianZcdpMap;
import org.dpstream.core.privacy.factorization.BltPrefixSum;
import org.dpstream.core.privacy.factorization.ExactBltPrefixSum;
import org.dpstream.core.privacy.factorization.PrefixSumSquareRoot;
import org.dpstream.core.privacy.factorization.SqrtFactorizationCalibration;
import org.dpstream.core.privacy.factorization.SqrtFactorizationPrefixSum;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.recorder.Measurement;
import org.dpstream.core.privacy.recorder.RecordedBy;
import org.dpstream.core.privacy.recorder.SensitivityRecorder;

/**
 * Sensitivity recorders of the Toeplitz factorizations: the square root, the BLT and the exact BLT. Between
 * neighbours of up to k leaves, the rows of C x released by step t move in l2 by at most the map's S sqrt(Phi(t))
 * (for the exact BLT, over the widened column norms that cover its rounding), C the strategy's own coefficients.
 */
@RecordedBy({SqrtFactorizationCalibration.class, GaussianZcdpMap.class, SqrtFactorizationPrefixSum.class,
    BltPrefixSum.class, ExactBltPrefixSum.class})
class FactorizationRecorderTest {

  private static final int HORIZON = 13;

  private static OnlineModelSpec spec(AccountantChoice accountant, NoiseChoice noise) {
    OnlineTestData data = new OnlineTestData(DIMENSION, 2, 1, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(31));
    return data.spec("factorization-recorder", 2, 1, 1, HORIZON, accountant)
        .withIncrementClipping(IncrementClipping.fixed(CLIP)).withNoise(noise);
  }

  @Provide
  Arbitrary<Neighbours> neighbours() {
    return PrefixSumRecording.neighbours(HORIZON);
  }

  @Property(tries = 100, seed = "3011")
  void squareRootRowsMoveByAtMostTheDeclaredSensitivity(@ForAll("neighbours") Neighbours neighbours) {
    record(AccountantChoice.FACTORIZATION, NoiseChoice.CONTINUOUS,
        plan -> PrefixSumSquareRoot.coefficients(HORIZON), neighbours);
  }

  @Property(tries = 100, seed = "3012")
  void bltRowsMoveByAtMostTheDeclaredSensitivity(@ForAll("neighbours") Neighbours neighbours) {
    record(AccountantChoice.BLT, NoiseChoice.CONTINUOUS,
        plan -> ((BltPlan) plan).strategy().coefficients(HORIZON), neighbours);
  }

  @Property(tries = 100, seed = "3013")
  void exactBltRowsMoveByAtMostTheDeclaredSensitivity(@ForAll("neighbours") Neighbours neighbours) {
    record(AccountantChoice.BLT, NoiseChoice.DISCRETE,
        plan -> ((ExactBltPlan) plan).encoder().strategy().coefficients(HORIZON), neighbours);
  }

  /** Not hollow: the first leaf flipped across the clip ball moves its whole column, S sqrt(F(n)). */
  @Example
  void theFirstLeafFlippedReachesTheDeclaredSensitivity() {
    Neighbours first = PrefixSumRecording.oppositeLeafAt(HORIZON, 0);
    double squareRoot = PrefixSumRecording.tightness(record(AccountantChoice.FACTORIZATION, NoiseChoice.CONTINUOUS,
        plan -> PrefixSumSquareRoot.coefficients(HORIZON), first));
    double blt = PrefixSumRecording.tightness(record(AccountantChoice.BLT, NoiseChoice.CONTINUOUS,
        plan -> ((BltPlan) plan).strategy().coefficients(HORIZON), first));
    assertTrue(squareRoot > 1 - 1e-6 && squareRoot <= 1, "square root: measured / declared = " + squareRoot);
    assertTrue(blt > 1 - 1e-6 && blt <= 1, "BLT: measured / declared = " + blt);
  }

  @Example
  void nonFiniteLeavesAreRefusedBeforeAnyDraw() {
    OnlineModelSpec[] specs = {spec(AccountantChoice.FACTORIZATION, NoiseChoice.CONTINUOUS),
        spec(AccountantChoice.BLT, NoiseChoice.CONTINUOUS), spec(AccountantChoice.BLT, NoiseChoice.DISCRETE)};
    for (OnlineModelSpec spec : specs) {
      PrefixSumRecording.assertNonFiniteLeavesRefused(PrefixSumPlan.choose(spec), spec);
    }
  }

  private static List<Measurement> record(AccountantChoice accountant, NoiseChoice noise,
      Function<PrefixSumPlan, double[]> coefficients, Neighbours neighbours) {
    OnlineModelSpec spec = spec(accountant, noise).withParticipations(neighbours.participations());
    PrefixSumPlan plan = PrefixSumPlan.choose(spec);
    return SensitivityRecorder.of(
            (List<double[]> leaves, KeyedNoiseSource source) -> PrefixSumRecording.releases(plan, spec, leaves, source),
            PrefixSumRecording.zcdpRows(PrefixSumRecording.toeplitz(coefficients.apply(plan)),
                (GaussianZcdpMap) plan.calibration()))
        .check(neighbours.leaves(), neighbours.neighbour());
  }
}
