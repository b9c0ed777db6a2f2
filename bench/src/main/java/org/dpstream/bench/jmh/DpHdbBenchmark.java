package org.dpstream.bench.jmh;

import org.dpstream.bandit.BanditPolicy;
import org.dpstream.bandit.hdb.DpHdbPolicy;
import org.dpstream.bandit.hdb.DpHdbSpec;
import org.dpstream.core.loss.CanonicalLink;
import org.dpstream.core.loss.DataBounds;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.openjdk.jmh.annotations.Param;

/**
 * DP-HDB (Algorithm 3) on one core: {@code decide} (pre-selection and greedy choice, 2K dot products)
 * and {@code update} (one DP-POFW step of every arm: the real sample to one, the synthetic one to the
 * others, each with 2d keyed Laplace draws). Greedy phase (t0 = 1, warm-up done in setup), identity
 * link, contexts of unit inf-norm, eps = 1.
 */
public class DpHdbBenchmark extends BanditPolicyBenchmark {

  @Param({"50", "784"})
  public int dimension;

  @Param({"2", "10"})
  public int arms;

  @Override
  BanditPolicy start() {
    // A horizon no run reaches, so the arms' composition epochs never change during measurement.
    DpHdbSpec spec = new DpHdbSpec("bench", dimension, arms, CanonicalLink.IDENTITY, 1, 0.5, 1,
        new PrivacyBudget(1, 1e-6), 1L << 40, new DataBounds(1, 1));
    return DpHdbPolicy.start(spec, BenchmarkInputs.keyedSource(6L));
  }

  @Override
  int warmUpRounds() {
    return arms; // the forced-sampling warm-up, K t0 = K rounds
  }
}
