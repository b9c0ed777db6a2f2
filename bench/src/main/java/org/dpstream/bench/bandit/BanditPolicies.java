package org.dpstream.bench.bandit;

import org.dpstream.bandit.BanditPolicy;
import org.dpstream.bandit.env.EnvironmentBounds;
import org.dpstream.bandit.ucb.DpUcbPolicy;
import org.dpstream.bandit.ucb.DpUcbSpec;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.random.KeyedNoiseSource;

/** Builds the policy of a run, calibrated with the environment's public bounds at the run's budget. */
final class BanditPolicies {

  private BanditPolicies() {}

  static BanditPolicy create(BanditRunSpec run, EnvironmentBounds bounds, KeyedNoiseSource noise) {
    return switch (run.algorithm()) {
      case DPHDB -> DpHdbFactory.create(run, bounds, noise);
      case DPUCB -> new DpUcbPolicy(DpUcbSpec.forEnvironment(run.runId(), run.arms(), run.d(), run.horizon(),
          new PrivacyBudget(run.epsilon(), run.delta()), bounds), noise);
    };
  }

  /** The policy's calibration for the summary, when it reports one. */
  static String describe(BanditPolicy policy) {
    return policy instanceof DpUcbPolicy ucb ? ucb.describe() : policy.name();
  }
}
