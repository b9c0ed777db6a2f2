package org.dpstream.bench.jmh;

import org.dpstream.bandit.BanditPolicy;
import org.dpstream.bandit.linear.DpLinearPolicy;
import org.dpstream.bandit.linear.DpLinearSpec;
import org.dpstream.core.online.AccountantChoice;
import org.dpstream.core.online.NoiseChoice;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.openjdk.jmh.annotations.Param;

/**
 * DP-Linear on one core: {@code decide} (K dot products with the cached ridge solutions) and
 * {@code update} (one clipped contribution, O(d^2), to the chosen arm's pending leaf; every k-th update
 * also releases every arm's statistics through the Gaussian tree, K m keyed Gaussian draws with
 * m = d (d + 3) / 2, and solves K ridge systems by Cholesky, so update/s is the amortised rate). Contexts
 * of unit inf-norm, eps = 1, the Gaussian tree with k = d: it has a steady state, while a factorization
 * release costs O(t m) at release t (the bench's default, 100 releases over T, is cheaper per round still).
 */
public class DpLinearBenchmark extends BanditPolicyBenchmark {

  @Param({"50"})
  public int dimension;

  @Param({"5"})
  public int arms;

  @Override
  BanditPolicy start() {
    // A horizon no run reaches, so the release epoch never changes during measurement.
    DpLinearSpec spec = new DpLinearSpec("bench", dimension, arms, 1, 1.2, new PrivacyBudget(1, 1e-6), 1L << 40,
        dimension, AccountantChoice.ZCDP, NoiseChoice.CONTINUOUS);
    return DpLinearPolicy.start(spec, BenchmarkInputs.keyedSource(6L));
  }

  @Override
  int warmUpRounds() {
    return 2 * dimension; // two releases, so theta is not all zero
  }
}
