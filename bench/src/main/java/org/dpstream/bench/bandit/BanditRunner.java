package org.dpstream.bench.bandit;

import org.dpstream.bandit.BanditPolicy;
import org.dpstream.bandit.Decision;
import org.dpstream.bandit.env.BanditEnvironment;
import org.dpstream.bandit.env.BanditRound;
import org.dpstream.bandit.env.RegretTracker;

/** Runs a policy for T rounds of the decide-observe-update loop and scores it. */
final class BanditRunner {

  private BanditRunner() {}

  static BanditRunResult run(BanditRunSpec run, BanditEnvironment environment, BanditPolicy policy) {
    RegretTracker regret = new RegretTracker(run.horizon());
    long policyNanos = 0;
    for (int t = 0; t < run.horizon(); t++) {
      BanditRound round = environment.nextRound();
      double[] context = round.context();
      long started = System.nanoTime();
      Decision decision = policy.decide(context);
      long decided = System.nanoTime();
      double reward = round.observedReward(decision.arm());
      long observed = System.nanoTime();
      policy.update(decision, context, reward);
      policyNanos += (decided - started) + (System.nanoTime() - observed);
      regret.record(round, decision.arm());
    }
    return new BanditRunResult(run, regret.cumulativeRegret(), regret.optimalChoiceRate(), policyNanos / 1e9,
        regret.cumulativeRegretByRound(), BanditPolicies.describe(policy));
  }
}
