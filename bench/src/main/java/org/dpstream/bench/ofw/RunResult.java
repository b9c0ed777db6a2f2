package org.dpstream.bench.ofw;

/**
 * The outcome of one run.
 *
 * @param accountant the accountant named in the outputs (the requested one for OFW, the baseline's own
 *     for batch baselines)
 * @param noise the sampler of an online run ({@code discrete} or {@code continuous}); {@code -} for batch
 *     baselines, which sample their own
 * @param risk L(theta^) on the test set
 * @param subopt SubOpt of the final parameters
 * @param seconds wall time of training only (scoring at checkpoints excluded)
 * @param mechanism algorithm, accountant and noise as the estimator describes them
 * @param spentEpsilon epsilon the run's ledger recorded (at most the budget's)
 * @param spentDelta delta the run's ledger recorded (at most the budget's)
 * @param checkpoints steps t at which SubOpt was recorded (empty for batch baselines)
 * @param trajectory SubOpt after t samples, one per checkpoint
 */
public record RunResult(
    RunSpec spec, String accountant, String noise, double risk, double subopt, double seconds, String mechanism,
    double spentEpsilon, double spentDelta, int[] checkpoints, double[] trajectory) {}
