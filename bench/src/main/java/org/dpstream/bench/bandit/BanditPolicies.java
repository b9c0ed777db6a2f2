package org.dpstream.bench.bandit;

import org.dpstream.bandit.BanditPolicy;
import org.dpstream.bandit.baseline.GreedyRidgePolicy;
import org.dpstream.bandit.baseline.UniformRandomPolicy;
import org.dpstream.bandit.linear.DpLinearPolicy;
import org.dpstream.bandit.env.EnvironmentBounds;
import org.dpstream.bandit.ucb.DpUcbPolicy;
import org.dpstream.bandit.ucb.DpUcbSpec;
import org.dpstream.core.online.AccountantChoice;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.random.KeyedNoiseSource;

/** Builds the policy of a run, calibrated with the environment's public bounds at the run's budget. */
final class BanditPolicies {

  private BanditPolicies() {}

  /** Options of the policies that a run may change; the defaults are the bench's. */
  record Options(double preSelectionGap, AccountantChoice linearAccountant, int linearReleases) {
    static final Options DEFAULTS = new Options(DpHdbFactory.PRE_SELECTION_GAP, DpLinearFactory.DEFAULT_ACCOUNTANT,
        DpLinearFactory.DEFAULT_RELEASES);
  }

  static BanditPolicy create(BanditRunSpec run, EnvironmentBounds bounds, KeyedNoiseSource noise) {
    return create(run, bounds, noise, Options.DEFAULTS);
  }

  static BanditPolicy create(BanditRunSpec run, EnvironmentBounds bounds, KeyedNoiseSource noise, Options options) {
    return switch (run.algorithm()) {
      case DEFAULT -> create(run.as(BanditAlgorithm.defaultFor(run.d(), run.arms(), run.horizon(), run.epsilon())),
          bounds, noise, options);
      case DPHDB -> DpHdbFactory.create(run, bounds, noise, options.preSelectionGap());
      case DPUCB -> new DpUcbPolicy(DpUcbSpec.forEnvironment(run.runId(), run.arms(), run.d(), run.horizon(),
          new PrivacyBudget(run.epsilon(), run.delta()), bounds), noise);
      case DPLINEAR -> DpLinearFactory.create(run, bounds, noise, options.linearAccountant(), options.linearReleases());
      case RANDOM -> new UniformRandomPolicy(run.arms(), run.d(), run.seed());
      case GREEDY -> new GreedyRidgePolicy(run.arms(), run.d());
    };
  }

  /** The policy's calibration for the summary, when it reports one. */
  static String describe(BanditPolicy policy) {
    if (policy instanceof DpUcbPolicy ucb) {
      return ucb.describe();
    }
    return policy instanceof DpLinearPolicy linear ? linear.mechanism() : policy.name();
  }
}
