package org.dpstream.core.online;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import org.dpstream.core.geometry.NormClipper;
import org.dpstream.core.privacy.PrivatePrefixSums;
import org.dpstream.core.privacy.accounting.GaussianZcdpMap;
import org.dpstream.core.privacy.accounting.SensitivityStructure;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.recorder.Measurement;
import org.dpstream.core.privacy.recorder.SensitivityRecorder;

/**
 * The sensitivity recorder of DP-TOFW's prefix-sum mechanisms (the trees, the square root, the BLT, the exact BLT):
 * neighbouring streams of leaves, each clipped by the plan's own clipper exactly as the estimator clips its increments
 * (raw leaves at and past the clip boundary, up to +-Double.MAX_VALUE), are released under one key; with the same
 * noise, the difference of two releases is the difference of the exact prefix sums, from which the leaves' changes
 * Delta x are read, and the change of the strategy's rows released by step t, ||C_t Delta x||_2, is compared with the
 * calibration's S sqrt(Phi(t)).
 */
final class PrefixSumRecording {

  static final int DIMENSION = 3;
  static final double CLIP = 1.0;

  private PrefixSumRecording() {}

  /**
   * Two streams that differ in at most k leaves (the person's), at positions of a participation pattern: an aligned
   * block (the tree's worst case), consecutive leaves from any start (the Toeplitz strategies' near-worst case), or
   * spread out.
   */
  record Neighbours(int participations, List<double[]> leaves, List<double[]> neighbour, List<Integer> changed) {
    @Override
    public String toString() {
      StringBuilder text = new StringBuilder("k=" + participations + ", changed ").append(changed).append(':');
      for (int position : changed) {
        text.append(' ').append(java.util.Arrays.toString(leaves.get(position))).append(" -> ")
            .append(java.util.Arrays.toString(neighbour.get(position)));
      }
      return text.toString();
    }
  }

  /** Raw leaf coordinates: ordinary values, the clip boundary, subnormals and the largest doubles. */
  static Arbitrary<Double> rawCoordinates() {
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(4, Arbitraries.doubles().between(-3 * CLIP, 3 * CLIP)),
        net.jqwik.api.Tuple.of(2, Arbitraries.of(CLIP, -CLIP, CLIP / Math.sqrt(DIMENSION), 0.0, -0.0)),
        net.jqwik.api.Tuple.of(1, Arbitraries.of(Double.MAX_VALUE, -Double.MAX_VALUE, Double.MIN_VALUE,
            Math.nextDown(CLIP), Math.nextUp(CLIP))));
  }

  static Arbitrary<double[]> rawLeaves() {
    return rawCoordinates().array(double[].class).ofSize(DIMENSION);
  }

  /** Neighbouring streams of {@code steps} leaves differing in at most k of them, k from 1 to 3. */
  static Arbitrary<Neighbours> neighbours(int steps) {
    return Arbitraries.integers().between(1, 3).flatMap(k -> neighbours(steps, k));
  }

  /** Neighbouring streams of {@code steps} leaves differing in at most {@code participations} of them. */
  static Arbitrary<Neighbours> neighbours(int steps, int participations) {
    Arbitrary<List<double[]>> stream = rawLeaves().list().ofSize(steps);
    Arbitrary<List<double[]>> replacements = rawLeaves().list().ofSize(participations);
    Arbitrary<Integer> pattern = Arbitraries.integers().between(0, 3);
    Arbitrary<Integer> start = Arbitraries.integers().between(0, steps - 1);
    return Combinators.combine(stream, replacements, pattern, start).as((leaves, others, kind, from) -> {
      List<Integer> positions = positions(steps, participations, kind, from);
      List<double[]> neighbour = new ArrayList<>(leaves);
      for (int i = 0; i < positions.size(); i++) {
        int position = positions.get(i);
        // pattern 3: the opposite of the leaf, scaled far past the boundary (after clipping: a change of 2C)
        double[] other = kind == 3 ? scaled(leaves.get(position), -Double.MAX_VALUE / 4) : others.get(i);
        neighbour.set(position, other);
      }
      return new Neighbours(participations, leaves, neighbour, positions);
    });
  }

  /**
   * The worst single change: every leaf C e_1, the neighbour's leaf at {@code position} -C e_1 (a change of 2C, the
   * largest clipping allows), so a tight recorder measures the declared sensitivity to within its slack.
   */
  static Neighbours oppositeLeafAt(int steps, int position) {
    List<double[]> leaves = new ArrayList<>();
    for (int t = 0; t < steps; t++) {
      leaves.add(new double[] {CLIP, 0, 0});
    }
    List<double[]> neighbour = new ArrayList<>(leaves);
    neighbour.set(position, new double[] {-CLIP, 0, 0});
    return new Neighbours(1, leaves, neighbour, List.of(position));
  }

  /** The largest ratio of measured to declared sensitivity. */
  static double tightness(List<Measurement> measurements) {
    return measurements.stream().mapToDouble(m -> m.measured() / m.declared()).max().orElseThrow();
  }

  private static double[] scaled(double[] leaf, double factor) {
    double[] out = new double[leaf.length];
    double largest = 0;
    for (double x : leaf) {
      largest = Math.max(largest, Math.abs(x));
    }
    for (int j = 0; j < leaf.length; j++) {
      out[j] = largest == 0 ? (j == 0 ? factor : 0) : leaf[j] / largest * factor;
    }
    return out;
  }

  private static List<Integer> positions(int steps, int participations, int kind, int from) {
    List<Integer> positions = new ArrayList<>();
    int block = Integer.highestOneBit(participations) << (participations > Integer.highestOneBit(participations) ? 1 : 0);
    int first = switch (kind) {
      case 0 -> from / block * block; // aligned block
      default -> from;
    };
    int stride = kind == 2 ? Math.max(1, steps / participations) : 1;
    for (int i = 0; i < participations; i++) {
      int position = first + i * stride;
      if (position < steps && !positions.contains(position)) {
        positions.add(position);
      }
    }
    return positions;
  }

  /** The releases of a stream, every leaf clipped by the plan's clipper to C first. */
  static List<double[]> releases(PrefixSumPlan plan, OnlineModelSpec spec, List<double[]> raw,
      KeyedNoiseSource source) {
    return releases(plan, spec, raw, source, true);
  }

  /**
   * The mechanism's own refusal of a leaf that is not finite: a stream whose first leaf has a NaN or an infinity,
   * given to the mechanism unclipped, is refused before any noise is drawn.
   */
  static void assertNonFiniteLeavesRefused(PrefixSumPlan plan, OnlineModelSpec spec) {
    SensitivityRecorder<List<double[]>, List<double[]>> unclipped = SensitivityRecorder.of(
        (List<double[]> leaves, KeyedNoiseSource source) -> releases(plan, spec, leaves, source, false),
        (a, b) -> List.of());
    for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
      unclipped.assertRefusedBeforeAnyDraw(List.of(new double[] {0, bad, 0}));
    }
  }

  private static List<double[]> releases(PrefixSumPlan plan, OnlineModelSpec spec, List<double[]> raw,
      KeyedNoiseSource source, boolean clip) {
    PrivatePrefixSums sums = plan.start(spec, source);
    NormClipper clipper = NormClipper.of(plan.clipNorm(), TreeNoisePlan.incrementBound(spec));
    List<double[]> releases = new ArrayList<>();
    for (double[] leaf : raw) {
      double[] clipped = leaf.clone();
      if (clip) {
        clipper.clip(leaf, clipped);
      }
      double[] release = new double[leaf.length];
      sums.addAndRelease(clipped, release);
      releases.add(release);
    }
    return releases;
  }

  /** A linear strategy C: the rows released by step t, as coefficients over leaves 1..t. */
  interface Strategy {
    List<double[]> rowsReleasedBy(int step);
  }

  /** The binary tree of {@code depth} levels: a node of level l sums an aligned block of 2^l leaves. */
  static Strategy tree(int depth) {
    return step -> {
      List<double[]> rows = new ArrayList<>();
      for (int level = 0; level < depth; level++) {
        int size = 1 << level;
        for (int end = size; end <= step; end += size) {
          double[] row = new double[step];
          java.util.Arrays.fill(row, end - size, end, 1.0);
          rows.add(row);
        }
      }
      return rows;
    };
  }

  /** The lower-triangular Toeplitz matrix of first column {@code c}. */
  static Strategy toeplitz(double[] c) {
    return step -> {
      List<double[]> rows = new ArrayList<>();
      for (int row = 0; row < step; row++) {
        double[] coefficients = new double[step];
        for (int column = 0; column <= row; column++) {
          coefficients[column] = c[row - column];
        }
        rows.add(coefficients);
      }
      return rows;
    };
  }

  /**
   * For every step t, ||C_t Delta x||_2 against the calibration's S sqrt(Phi(t)).
   *
   * <p>Rounding of the measurement: each release is the computed prefix sum plus the same noise, rounded at most
   * twice, so the difference of two releases is the difference of the computed prefix sums to within e = 2 (ulp(R) +
   * ulp(R')) per coordinate (their subtraction is exact or adds at most ulp(max)), counted again for the previous
   * step in each leaf's change; ||C_t E||_2 &lt;= ||C_t||_F ||E||_2 bounds what it does to the measured norm, and the
   * norm's own evaluation adds {@link SensitivityRecorder#l2DistanceRounding}.
   */
  static SensitivityRecorder.Sensitivity<List<double[]>> zcdpRows(Strategy strategy, GaussianZcdpMap map) {
    return (a, b) -> {
      List<Measurement> measurements = new ArrayList<>();
      int steps = a.size();
      double[][] change = new double[steps][DIMENSION];
      double[][] error = new double[steps][DIMENSION];
      for (int t = 0; t < steps; t++) {
        for (int j = 0; j < DIMENSION; j++) {
          double now = a.get(t)[j] - b.get(t)[j];
          double before = t == 0 ? 0 : a.get(t - 1)[j] - b.get(t - 1)[j];
          change[t][j] = now - before;
          error[t][j] = releaseError(a.get(t)[j], b.get(t)[j]) + (t == 0 ? 0 : releaseError(a.get(t - 1)[j],
              b.get(t - 1)[j])) + Math.ulp(change[t][j]);
        }
      }
      SensitivityStructure structure = map.structure();
      for (int t = 1; t <= steps; t++) {
        List<double[]> rows = strategy.rowsReleasedBy(t);
        double squared = 0;
        double frobenius = 0;
        for (double[] row : rows) {
          for (int j = 0; j < DIMENSION; j++) {
            double value = 0;
            for (int i = 0; i < t; i++) {
              value += row[i] * change[i][j];
            }
            squared += value * value;
          }
          for (int i = 0; i < t; i++) {
            frobenius += row[i] * row[i];
          }
        }
        double errorNorm = 0;
        for (int i = 0; i < t; i++) {
          for (int j = 0; j < DIMENSION; j++) {
            errorNorm += error[i][j] * error[i][j];
          }
        }
        double measured = Math.sqrt(squared);
        double declared = map.l2Sensitivity() * Math.sqrt(structure.bound(structure.indexOf(t)));
        double rounding = Math.sqrt(frobenius) * Math.sqrt(errorNorm) * (1 + 0x1p-40)
            + SensitivityRecorder.l2DistanceRounding(rows.size() * DIMENSION * t, measured);
        measurements.add(new Measurement("rows released by step " + t + ", l2", measured, declared, rounding));
      }
      return measurements;
    };
  }

  static double releaseError(double a, double b) {
    return 2 * (Math.ulp(a) + Math.ulp(b));
  }
}
