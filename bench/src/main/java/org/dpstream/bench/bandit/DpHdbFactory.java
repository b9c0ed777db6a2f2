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

  /**
   * The default pre-selection gap h_sub: infinite, i.e. pre-selection off. The frozen forced-sampling
   * estimators it filters on are one-step, heavily diluted estimates when t0 is small (docs/bandit-privacy.md:
   * they hold 29-51 % of the true coefficient with noise off), so a finite gap removes the best arm on
   * contexts where those estimates are wrong; measured in docs/results.md (bandit section).
   */
  static final double PRE_SELECTION_GAP = Double.POSITIVE_INFINITY;

  private DpHdbFactory() {}

  static BanditPolicy create(BanditRunSpec run, EnvironmentBounds bounds, KeyedNoiseSource noise,
      double preSelectionGap) {
    DpHdbSpec spec = DpHdbSpec.withDefaultWarmUp(run.runId(), run.d(), run.arms(), CanonicalLink.IDENTITY, 1.0,
        preSelectionGap, new PrivacyBudget(run.epsilon(), run.delta()), run.horizon(),
        new DataBounds(1.0, bounds.reward()));
    return DpHdbPolicy.start(spec, noise);
  }
}
