package org.dpstream.bench.bandit;

import org.dpstream.bandit.BanditPolicy;
import org.dpstream.bandit.env.EnvironmentBounds;
import org.dpstream.bandit.hdb.DpHdbPolicy;
import org.dpstream.bandit.hdb.DpHdbSpec;
import org.dpstream.core.loss.CanonicalLink;
import org.dpstream.core.loss.DataBounds;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.random.KeyedNoiseSource;

/**
 * The one place the bench constructs DP-HDB (Han et al., Algorithm 3) for a run: identity link, the l1
 * ball of radius 1 (both environments' theta* have unit l1 norm), contexts of unit inf-norm (the dual of
 * l1) and the environment's public reward bound, t0 from the authors' code.
 */
final class DpHdbFactory {

  /** The pre-selection gap h_sub: public, fixed before any data, as the paper's Assumption requires. */
  static final double PRE_SELECTION_GAP = 0.1;

  private DpHdbFactory() {}

  static BanditPolicy create(BanditRunSpec run, EnvironmentBounds bounds, KeyedNoiseSource noise) {
    DpHdbSpec spec = DpHdbSpec.withDefaultWarmUp(run.runId(), run.d(), run.arms(), CanonicalLink.IDENTITY, 1.0,
        PRE_SELECTION_GAP, new PrivacyBudget(run.epsilon(), run.delta()), run.horizon(),
        new DataBounds(1.0, bounds.reward()));
    return DpHdbPolicy.start(spec, noise);
  }
}
