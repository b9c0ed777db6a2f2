package org.dpstream.bandit.hdb;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.dpstream.bandit.Decision;
import org.dpstream.bandit.NeighbouringRounds;
import org.dpstream.core.loss.CanonicalLink;
import org.dpstream.core.loss.DataBounds;
import org.dpstream.core.online.EstimatorFactory;
import org.dpstream.core.online.OnlineEstimator;
import org.dpstream.core.online.OnlineModelSpec;
import org.dpstream.core.online.PofwUtilityChange;
import org.dpstream.core.online.StepOutcome;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.PrivacyLedger;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKeyRing;
import org.dpstream.core.privacy.recorder.Measurement;
import org.dpstream.core.privacy.recorder.RecordedBy;
import org.dpstream.core.privacy.recorder.SensitivityRecorder;

/**
 * Sensitivity recorder of DP-HDB's arms: neighbouring sequences of rounds (one user's context and reward replaced,
 * coordinates up to +-Double.MAX_VALUE) under one key, every arm the production DP-POFW, its steps recorded. Up to the
 * replaced round the arms' streams are the same; at it at most two arms' samples differ (the user's sample may go to
 * another arm: JointDpCalibration's two arms), and each such arm's vertex utilities move by at most its calibration's
 * Delta_k (DP-POFW's own measurement, {@link PofwUtilityChange}). The draws of the whole run are the same.
 */
@RecordedBy(DpHdbPolicy.class)
class DpHdbRecorderTest {

  private static final int DIMENSION = 3;
  private static final int ARMS = 3;
  private static final int ROUNDS = 14;
  private static final long WARM_UP_PER_ARM = 2;
  private static final DpHdbSpec SPEC = new DpHdbSpec("hdb-recorder", DIMENSION, ARMS, CanonicalLink.IDENTITY, 1, 0.2,
      WARM_UP_PER_ARM, new PrivacyBudget(1, 1e-5), ROUNDS, new DataBounds(1, 1));

  /** One step of one arm: the public state it was taken at (iterates, step in epoch) and its sample. */
  record ArmStep(double[] current, double[] previous, long k, double[] sample) {
    boolean sameStateAs(ArmStep other) {
      return Arrays.equals(current, other.current) && Arrays.equals(previous, other.previous) && k == other.k;
    }
  }

  @Provide
  Arbitrary<NeighbouringRounds> rounds() {
    return NeighbouringRounds.of(DIMENSION, ROUNDS);
  }

  @Property(tries = 60, seed = "3071")
  void atMostTwoArmsChangeAndEachByAtMostDelta(@ForAll("rounds") NeighbouringRounds rounds) {
    int r = rounds.replaced();
    SensitivityRecorder.of((List<double[]> stream, KeyedNoiseSource source) -> run(stream, source),
        (List<List<ArmStep>> a, List<List<ArmStep>> b) -> {
          List<Measurement> measurements = new ArrayList<>();
          int differingBefore = 0;
          int differingAt = 0;
          for (int arm = 0; arm < ARMS; arm++) {
            for (int t = 0; t < r; t++) {
              if (!Arrays.equals(a.get(arm).get(t).sample(), b.get(arm).get(t).sample())) {
                differingBefore++;
              }
            }
            ArmStep mine = a.get(arm).get(r);
            ArmStep theirs = b.get(arm).get(r);
            if (!mine.sameStateAs(theirs)) {
              differingBefore++; // a state that differs before the replaced round: an earlier sample leaked in
            }
            if (!Arrays.equals(mine.sample(), theirs.sample())) {
              differingAt++;
              OnlineModelSpec armSpec = SPEC.armSpec(arm);
              double measured = PofwUtilityChange.measured(armSpec, mine.current(), mine.previous(), mine.k(),
                  mine.sample(), theirs.sample());
              measurements.add(new Measurement("arm " + arm + "'s vertex utilities at round " + r + ", l_inf",
                  measured, PofwUtilityChange.declared(armSpec, mine.k()), PofwUtilityChange.rounding(measured)));
            }
          }
          measurements.add(new Measurement("arm samples that differ before round " + r, differingBefore, 0, 0));
          measurements.add(new Measurement("arms whose sample differs at round " + r, differingAt, 2, 0));
          return measurements;
        })
        .check(rounds.rounds(), rounds.neighbour());
  }

  @Example
  void nonFiniteRoundsAreRefusedBeforeAnyDraw() {
    SensitivityRecorder<double[], double[]> round = SensitivityRecorder.of((double[] r, KeyedNoiseSource source) -> {
      DpHdbPolicy policy = DpHdbPolicy.start(SPEC, source);
      double[] context = Arrays.copyOf(r, DIMENSION);
      policy.update(policy.decide(context), context, r[DIMENSION]);
      return r;
    }, (a, b) -> List.of());
    for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
      round.assertRefusedBeforeAnyDraw(new double[] {bad, 0, 0, 1});
      round.assertRefusedBeforeAnyDraw(new double[] {0, 0, 0, bad});
    }
  }

  private static List<List<ArmStep>> run(List<double[]> stream, KeyedNoiseSource source) {
    List<List<ArmStep>> steps = new ArrayList<>();
    DpHdbPolicy policy = DpHdbPolicy.start(SPEC, source, new EstimatorFactory() {
      @Override
      public OnlineEstimator start(OnlineModelSpec spec, KeyedNoiseSource armSource) {
        List<ArmStep> armSteps = new ArrayList<>();
        steps.add(armSteps);
        return new RecordingArm(EstimatorFactory.PRIVATE.start(spec, armSource), armSteps);
      }

      @Override
      public OnlineEstimator restore(OnlineModelSpec spec, DataInput in, NoiseKeyRing keys) {
        throw new UnsupportedOperationException("the recorder starts fresh arms");
      }
    });
    for (double[] round : stream) {
      double[] context = Arrays.copyOf(round, DIMENSION);
      Decision decision = policy.decide(context);
      policy.update(decision, context, round[DIMENSION]);
    }
    return steps;
  }

  /** The production arm, each step's public state and sample recorded before it is taken. */
  private static final class RecordingArm implements OnlineEstimator {
    private final OnlineEstimator arm;
    private final List<ArmStep> steps;
    private double[] previous;

    RecordingArm(OnlineEstimator arm, List<ArmStep> steps) {
      this.arm = arm;
      this.steps = steps;
      this.previous = new double[arm.spec().dimension()];
    }

    @Override
    public StepOutcome step(double[] features, double label) {
      double[] current = arm.parameters();
      long k = arm.steps() % arm.spec().horizon() + 1;
      double[] sample = Arrays.copyOf(features, features.length + 1);
      sample[features.length] = label;
      steps.add(new ArmStep(current, previous, k, sample));
      previous = current;
      return arm.step(features, label);
    }

    @Override
    public OnlineModelSpec spec() {
      return arm.spec();
    }

    @Override
    public long steps() {
      return arm.steps();
    }

    @Override
    public long epoch() {
      return arm.epoch();
    }

    @Override
    public double[] parameters() {
      return arm.parameters();
    }

    @Override
    public PrivacyLedger ledger() {
      return arm.ledger();
    }

    @Override
    public String mechanism() {
      return arm.mechanism();
    }

    @Override
    public void writeState(DataOutput out) throws IOException {
      arm.writeState(out);
    }
  }
}
