package org.dpstream.core.online;

import static org.dpstream.core.online.PrefixSumRecording.CLIP;
import static org.dpstream.core.online.PrefixSumRecording.DIMENSION;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.geometry.LpNorm;
import org.dpstream.core.online.PrefixSumRecording.Neighbours;
import org.dpstream.core.privacy.accounting.GaussianTreeCalibration;
import org.dpstream.core.privacy.accounting.GaussianZcdpMap;
import org.dpstream.core.privacy.accounting.PaperTreeCalibration;
import org.dpstream.core.privacy.accounting.TreeHorizon;
import org.dpstream.core.privacy.recorder.Measurement;
import org.dpstream.core.privacy.recorder.RecordedBy;
import org.dpstream.core.privacy.recorder.SensitivityRecorder;
import org.dpstream.core.privacy.tree.LatticePrefixSums;

/**
 * Sensitivity recorder of the tree (zCDP and the paper's calibration): every node released by step t moves, between
 * neighbours of up to k leaves, by no more than the calibration declares: in l2 over all of them for the zCDP map
 * (S sqrt(Phi_k(t))), node by node in the clip norm for the paper's (its leaf sensitivity per node).
 */
@RecordedBy({GaussianTreeCalibration.class, PaperTreeCalibration.class, LatticePrefixSums.class})
class TreeRecorderTest {

  private static final int HORIZON = 16;

  private static OnlineModelSpec spec(double p, AccountantChoice accountant) {
    OnlineTestData data = new OnlineTestData(DIMENSION, p, 1, 0.1, RandomSource.XO_RO_SHI_RO_128_PP.create(30));
    return data.spec("tree-recorder", p, 1, 1, HORIZON, accountant)
        .withIncrementClipping(IncrementClipping.fixed(CLIP));
  }

  @Provide
  Arbitrary<Neighbours> neighbours() {
    return PrefixSumRecording.neighbours(HORIZON);
  }

  @Provide
  Arbitrary<Neighbours> oneLeaf() {
    return PrefixSumRecording.neighbours(HORIZON, 1);
  }

  @Property(tries = 150, seed = "3001")
  void zcdpTreeNodesMoveByAtMostTheDeclaredSensitivity(@ForAll("neighbours") Neighbours neighbours) {
    zcdpTree(neighbours);
  }

  /** Not hollow: the first leaf of a full tree, flipped across the clip ball, reaches S sqrt(h) up to the slack. */
  @Example
  void theFirstLeafFlippedReachesTheDeclaredSensitivity() {
    double tightness = PrefixSumRecording.tightness(zcdpTree(PrefixSumRecording.oppositeLeafAt(HORIZON, 0)));
    assertTrue(tightness > 1 - 1e-6 && tightness <= 1, "measured / declared = " + tightness);
  }

  @Example
  void nonFiniteLeavesAreRefusedBeforeAnyDraw() {
    for (AccountantChoice accountant : new AccountantChoice[] {AccountantChoice.ZCDP, AccountantChoice.PAPER}) {
      OnlineModelSpec spec = spec(accountant == AccountantChoice.PAPER ? 1.5 : 2, accountant);
      PrefixSumRecording.assertNonFiniteLeavesRefused(PrefixSumPlan.choose(spec), spec);
    }
  }

  private static List<Measurement> zcdpTree(Neighbours neighbours) {
    OnlineModelSpec spec = spec(2, AccountantChoice.ZCDP).withParticipations(neighbours.participations());
    PrefixSumPlan plan = PrefixSumPlan.choose(spec);
    GaussianZcdpMap map = (GaussianZcdpMap) plan.calibration();
    int depth = new TreeHorizon(map.horizon()).depth();
    return SensitivityRecorder.of(
            (List<double[]> leaves, org.dpstream.core.privacy.random.KeyedNoiseSource source) ->
                PrefixSumRecording.releases(plan, spec, leaves, source),
            PrefixSumRecording.zcdpRows(PrefixSumRecording.tree(depth), map))
        .check(neighbours.leaves(), neighbours.neighbour());
  }

  /**
   * The paper's tree composes one generalized-Gaussian mechanism per node, each calibrated to one leaf's change in
   * the dual norm q (event level only): every node, read from the release differences, moves by at most that.
   */
  @Property(tries = 150, seed = "3002")
  void paperTreeNodesMoveByAtMostTheLeafSensitivity(@ForAll("oneLeaf") Neighbours neighbours) {
    double p = 1.5;
    OnlineModelSpec spec = spec(p, AccountantChoice.PAPER);
    PrefixSumPlan plan = PrefixSumPlan.choose(spec);
    PaperTreeCalibration calibration = (PaperTreeCalibration) plan.calibration();
    LpNorm q = plan.clipNorm();
    int depth = calibration.tree().depth();
    SensitivityRecorder.of(
            (List<double[]> leaves, org.dpstream.core.privacy.random.KeyedNoiseSource source) ->
                PrefixSumRecording.releases(plan, spec, leaves, source),
            (List<double[]> a, List<double[]> b) -> nodeByNode(a, b, depth, q, calibration.leafSensitivity()))
        .check(neighbours.leaves(), neighbours.neighbour());
  }

  /**
   * Each node's change, the difference of two release differences; its rounding is that of the four releases
   * ({@link PrefixSumRecording#releaseError}) and of the subtractions, in the norm q at most d^(1/q) times the
   * largest coordinate error (taken as d times, for any q >= 1), plus the norm's own relative 2^-50.
   */
  private static List<Measurement> nodeByNode(List<double[]> a, List<double[]> b, int depth, LpNorm q,
      double declared) {
    List<Measurement> measurements = new ArrayList<>();
    for (int level = 0; level < depth; level++) {
      int size = 1 << level;
      for (int end = size; end <= a.size(); end += size) {
        int start = end - size;
        double[] change = new double[DIMENSION];
        double largestError = 0;
        for (int j = 0; j < DIMENSION; j++) {
          double atEnd = a.get(end - 1)[j] - b.get(end - 1)[j];
          double beforeStart = start == 0 ? 0 : a.get(start - 1)[j] - b.get(start - 1)[j];
          change[j] = atEnd - beforeStart;
          double error = PrefixSumRecording.releaseError(a.get(end - 1)[j], b.get(end - 1)[j])
              + (start == 0 ? 0 : PrefixSumRecording.releaseError(a.get(start - 1)[j], b.get(start - 1)[j]))
              + 2 * Math.ulp(Math.abs(atEnd) + Math.abs(beforeStart));
          largestError = Math.max(largestError, error);
        }
        double measured = q.valueOf(change);
        measurements.add(new Measurement("node (" + level + ", " + end / size + "), l" + q.exponent(), measured,
            declared, DIMENSION * largestError + 0x1p-50 * measured));
      }
    }
    return measurements;
  }
}
