package org.dpstream.core.online;

/**
 * What one step did, for metrics: the step number and epoch, and whether the sample or its
 * contributions were clipped. Clipping flags are not private output: count them in access-controlled
 * metrics only or aggregate them (the service exports totals per model).
 *
 * @param step samples consumed after this step, over all epochs
 * @param epoch the epoch this step ran in
 * @param gradientClipped the gradient term exceeded its bound L and was scaled down
 * @param differenceClipped the difference term t (grad f(theta_t) - grad f(theta_{t-1})) exceeded its
 *     bound beta D and was scaled down
 * @param sampleClipped the sample (x, y) exceeded the model's declared data bounds and was clipped to
 *     them before its gradients were taken
 */
public record StepOutcome(long step, long epoch, boolean gradientClipped, boolean differenceClipped,
    boolean sampleClipped) {

  /** An outcome whose sample was within its data bounds. */
  public StepOutcome(long step, long epoch, boolean gradientClipped, boolean differenceClipped) {
    this(step, epoch, gradientClipped, differenceClipped, false);
  }

  /** Anything about this sample was clipped: the sample itself or one of its gradient terms. */
  public boolean clipped() {
    return gradientClipped || differenceClipped || sampleClipped;
  }
}
