package org.dpstream.bench.bandit;

import org.dpstream.bandit.BanditPolicy;
import org.dpstream.bandit.env.EnvironmentBounds;
import org.dpstream.bandit.linear.DpLinearPolicy;
import org.dpstream.bandit.linear.DpLinearSpec;
import org.dpstream.core.online.AccountantChoice;
import org.dpstream.core.online.NoiseChoice;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.random.KeyedNoiseSource;

/**
 * The one place the bench constructs DP-Linear. Every choice is made from the environment's public
 * definition and DP-Linear's public noise formulas, before any run, and is the same for every environment:
 *
 * <ul>
 *   <li>context clip c = 1: both environments' contexts have unit l_inf norm, so ||x||_2 &gt;= 1 and clipping
 *       at 1 scales every context onto the unit sphere. The reward is scaled with it, which keeps a linear
 *       model exact and the greedy argmax unchanged; the signal and the noise then both scale with c^2, so
 *       any c at most the smallest context norm gives the same signal-to-noise ratio, and 1 is that scale.
 *   <li>reward centre m = the midpoint of the environment's reward range (0 on the synthetic environment, 1/2 on
 *       Fashion-MNIST's {0, 1}) and clip B = min(h, c ||theta*||_2 + |m| + 4 R), h the range's half-width: the
 *       scaled mean is at most c ||theta*||_2 and the R-sub-Gaussian noise exceeds 4 R rarely (a clipped tail, not a
 *       privacy matter). As a service user would declare them (rewardCenter, rewardBound).
 *   <li>the service's defaults for the release schedule: {@link DpLinearSpec#DEFAULT_RELEASES} releases over the
 *       horizon through {@link DpLinearSpec#DEFAULT_ACCOUNTANT} (the square-root factorization), whose reasoning
 *       {@code DpLinearSpec} gives; a release then costs O(n m) noise draws.
 * </ul>
 */
final class DpLinearFactory {

  static final double CONTEXT_CLIP = 1.0;
  static final double REWARD_TAIL_SCALES = 4;
  static final int DEFAULT_RELEASES = DpLinearSpec.DEFAULT_RELEASES;
  static final AccountantChoice DEFAULT_ACCOUNTANT = DpLinearSpec.DEFAULT_ACCOUNTANT;

  private DpLinearFactory() {}

  static DpLinearSpec spec(BanditRunSpec run, EnvironmentBounds bounds, AccountantChoice accountant, int releases) {
    double center = bounds.rewardMidpoint();
    double rewardClip = Math.min(bounds.rewardHalfRange(),
        CONTEXT_CLIP * bounds.parameterL2() + Math.abs(center) + REWARD_TAIL_SCALES * bounds.rewardNoiseScale());
    int refreshEvery = (int) Math.max(1, Math.min(run.horizon() / 2, (run.horizon() + releases - 1) / releases));
    return new DpLinearSpec(run.runId(), run.d(), run.arms(), CONTEXT_CLIP, rewardClip,
        new PrivacyBudget(run.epsilon(), run.delta()), run.horizon(), refreshEvery, accountant,
        NoiseChoice.CONTINUOUS, center);
  }

  static BanditPolicy create(BanditRunSpec run, EnvironmentBounds bounds, KeyedNoiseSource noise,
      AccountantChoice accountant, int releases) {
    return DpLinearPolicy.start(spec(run, bounds, accountant, releases), noise);
  }
}
