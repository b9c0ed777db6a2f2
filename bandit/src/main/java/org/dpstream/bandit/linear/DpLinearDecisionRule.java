package org.dpstream.bandit.linear;

import java.util.Objects;
import java.util.function.Supplier;
import org.dpstream.bandit.Decision;
import org.dpstream.bandit.PrivateBandit;
import org.dpstream.bandit.release.DecisionRule;
import org.dpstream.bandit.release.ReleasedBandit;
import org.dpstream.core.privacy.random.NoiseStream;

/**
 * DP-Linear's rule for deciders: greedy over the released per-arm ridge solutions ({@link LinearDecisionRule},
 * the function {@link DpLinearPolicy#decide} calls too), at the release's step. It explores by nothing but
 * the deterministic tie-break, so it never draws the request's noise.
 */
public final class DpLinearDecisionRule implements DecisionRule {

  private final DpLinearSpec spec;

  public DpLinearDecisionRule(DpLinearSpec spec) {
    this.spec = Objects.requireNonNull(spec, "spec");
  }

  @Override
  public String algorithm() {
    return DpLinearPolicy.NAME;
  }

  @Override
  public Decision decide(ReleasedBandit released, double[] context, Supplier<NoiseStream> requestNoise) {
    PrivateBandit.requireContext(context, spec.dimension(), spec.banditId());
    if (released.arms().length != spec.arms()) {
      throw new IllegalArgumentException("bandit " + spec.banditId() + " has " + spec.arms() + " arms, the release "
          + released.arms().length);
    }
    return new Decision(LinearDecisionRule.greedyArm(released.arms(), released.step(), context), Decision.Phase.GREEDY,
        released.step());
  }
}
