package org.dpstream.core.privacy.audit;

/**
 * The selection half of an audit: on one set of runs, picks the threshold event and the input it
 * favours that promise the largest epsilon lower bound on a separate, held-out set of runs.
 *
 * <p>Why not simply maximise the empirical ratio of frequencies: far in a tail the runs on one input
 * have no hits at all and the ratio is infinite, yet such an event yields almost nothing once
 * confidence intervals are applied. So each candidate is scored by a pessimistic prediction of the
 * lower bound it will give on the held-out runs: a Wilson score bound at the audit's confidence
 * around the selection frequency, with the width of two independent errors, that of the selection
 * frequency and that of the held-out one (effective runs 1 / (1/n_selection + 1/n_heldOut)). Counting
 * the selection error matters: with only the held-out width, the maximum over millions of candidates
 * is drawn to tail events whose few selection hits were lucky (a winner's curse inside the selection),
 * which halved the bound for a Gaussian mechanism with doubled sensitivity in our tests.
 *
 * <p>Wilson approximates the exact Clopper-Pearson bounds in a few flops, which matters because every
 * distinct observed value is a candidate. An imperfect score only costs power, never validity: the
 * held-out runs are independent of the choice.
 */
final class ThresholdEventSearch {

  /** The selected event and the input on which it is more likely. */
  record Choice(ThresholdEvent event, NeighbouringInput likelier) {}

  private final double z;
  private final double delta;
  private final double effectiveRuns;

  /**
   * @param z the standard normal quantile of each one-sided bound, Phi^-1(1 - alpha / 2)
   * @param delta the delta of the claimed (eps, delta) guarantee
   * @param selectionRuns runs per input in the samples passed to {@link #best}
   * @param heldOutRuns runs per input that will estimate the chosen event
   */
  ThresholdEventSearch(double z, double delta, int selectionRuns, int heldOutRuns) {
    this.z = z;
    this.delta = delta;
    this.effectiveRuns = 1 / (1.0 / selectionRuns + 1.0 / heldOutRuns);
  }

  /**
   * Scans every distinct value of the two samples as a threshold, in one merge pass.
   *
   * @param sortedOriginal selection runs on D, ascending, non-empty
   * @param sortedNeighbour selection runs on D', ascending, non-empty
   */
  Choice best(double[] sortedOriginal, double[] sortedNeighbour) {
    int originalRuns = sortedOriginal.length;
    int neighbourRuns = sortedNeighbour.length;
    if (originalRuns == 0 || neighbourRuns == 0) {
      throw new IllegalArgumentException("no selection runs");
    }
    Best best = new Best();
    int originalIndex = 0;
    int neighbourIndex = 0;
    while (originalIndex < originalRuns || neighbourIndex < neighbourRuns) {
      double threshold = Math.min(
          originalIndex < originalRuns ? sortedOriginal[originalIndex] : Double.POSITIVE_INFINITY,
          neighbourIndex < neighbourRuns ? sortedNeighbour[neighbourIndex] : Double.POSITIVE_INFINITY);
      int originalBelow = originalIndex;
      int neighbourBelow = neighbourIndex;
      while (originalIndex < originalRuns && sortedOriginal[originalIndex] == threshold) {
        originalIndex++;
      }
      while (neighbourIndex < neighbourRuns && sortedNeighbour[neighbourIndex] == threshold) {
        neighbourIndex++;
      }
      consider(best, threshold, ThresholdEvent.Tail.BELOW,
          (double) originalBelow / originalRuns, (double) neighbourBelow / neighbourRuns);
      consider(best, threshold, ThresholdEvent.Tail.ABOVE,
          (double) (originalRuns - originalIndex) / originalRuns,
          (double) (neighbourRuns - neighbourIndex) / neighbourRuns);
    }
    return best.choice();
  }

  private void consider(Best best, double threshold, ThresholdEvent.Tail tail,
      double originalProportion, double neighbourProportion) {
    best.offer(threshold, tail, NeighbouringInput.ORIGINAL,
        predictedLowerBound(originalProportion, neighbourProportion));
    best.offer(threshold, tail, NeighbouringInput.NEIGHBOUR,
        predictedLowerBound(neighbourProportion, originalProportion));
  }

  /** ln((lower(p_likelier) - delta) / upper(p_other)), or -infinity when the numerator is <= 0. */
  private double predictedLowerBound(double likelierProportion, double otherProportion) {
    double numerator = wilsonBound(likelierProportion, -z) - delta;
    if (!(numerator > 0)) {
      return Double.NEGATIVE_INFINITY;
    }
    return Math.log(numerator) - Math.log(wilsonBound(otherProportion, z));
  }

  /** The Wilson score bound for proportion p: lower for signedZ < 0, upper for signedZ > 0. */
  private double wilsonBound(double p, double signedZ) {
    double n = effectiveRuns;
    double zSquaredOverN = signedZ * signedZ / n;
    double centre = p + zSquaredOverN / 2;
    double halfWidth = signedZ * Math.sqrt(p * (1 - p) / n + zSquaredOverN / (4.0 * n));
    return (centre + halfWidth) / (1 + zSquaredOverN);
  }

  /**
   * Running maximum, kept in primitives because it sees millions of candidates. The first candidate
   * wins until beaten, so a choice exists even when no event separates the inputs.
   */
  private static final class Best {
    private boolean empty = true;
    private double score;
    private double threshold;
    private ThresholdEvent.Tail tail;
    private NeighbouringInput likelier;

    void offer(double candidateThreshold, ThresholdEvent.Tail candidateTail,
        NeighbouringInput candidateLikelier, double candidateScore) {
      if (empty || candidateScore > score) {
        empty = false;
        score = candidateScore;
        threshold = candidateThreshold;
        tail = candidateTail;
        likelier = candidateLikelier;
      }
    }

    Choice choice() {
      return new Choice(new ThresholdEvent(threshold, tail), likelier);
    }
  }
}
