package org.dpstream.bench.bandit;

/**
 * The outcome of one run.
 *
 * @param cumulativeRegret Regret(T)
 * @param accuracy fraction of rounds whose chosen arm was optimal
 * @param seconds wall time of the policy's decisions and updates (the environment excluded)
 * @param regretByRound cumulative regret after each round 1..T
 * @param mechanism the policy's description (calibration), for the summary
 */
record BanditRunResult(BanditRunSpec spec, double cumulativeRegret, double accuracy, double seconds,
    double[] regretByRound, String mechanism) {}
