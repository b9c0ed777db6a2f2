package org.dpstream.core.online;

/**
 * What one step did, for metrics: the step number and epoch, whether the sample or its contributions were
 * clipped, and the clipping rate the released norm histograms of adaptive clipping show. The clipping flags are
 * exact statistics of the sample, not private output: only metrics documented as raw data may count them. The
 * released clipping rate is a function of released values: public.
 *
 * @param step samples consumed after this step, over all epochs
 * @param epoch the epoch this step ran in
 * @param gradientClipped the gradient term exceeded its bound L and was scaled down
 * @param differenceClipped the difference term t (grad f(theta_t) - grad f(theta_{t-1})) exceeded its
 *     bound beta D and was scaled down
 * @param sampleClipped the sample (x, y) exceeded the model's declared data bounds and was clipped to
 *     them before its gradients were taken
 * @param releasedClipRate with adaptive clipping, the noisy share of the last finished block's increments above
 *     the threshold that block clipped to, from its released histogram; NaN otherwise or before a block finished
 */
public record StepOutcome(long step, long epoch, boolean gradientClipped, boolean differenceClipped,
    boolean sampleClipped, double releasedClipRate) {

  /** An outcome without a released clipping rate. */
  public StepOutcome(long step, long epoch, boolean gradientClipped, boolean differenceClipped,
      boolean sampleClipped) {
    this(step, epoch, gradientClipped, differenceClipped, sampleClipped, Double.NaN);
  }

  /** An outcome whose sample was within its data bounds. */
  public StepOutcome(long step, long epoch, boolean gradientClipped, boolean differenceClipped) {
    this(step, epoch, gradientClipped, differenceClipped, false);
  }

  /** Anything about this sample was clipped: the sample itself or one of its gradient terms. */
  public boolean clipped() {
    return gradientClipped || differenceClipped || sampleClipped;
  }
}
