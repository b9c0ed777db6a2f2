package org.dpstream.bench.ofw;

import org.dpstream.core.online.baseline.BatchProblem;
import org.dpstream.core.privacy.random.KeyedNoiseSource;

/**
 * A batch baseline (NoisySFW, NoisySGD): trains once on all T samples and returns its final
 * parameters, (epsilon, delta)-DP w.r.t. one sample under its own paper's calibration.
 */
interface BaselineTrainer {

  /** The final parameters, and the algorithm with its noise scales for the summary. */
  record Trained(double[] parameters, String mechanism) {}

  Trained train(BatchProblem problem, KeyedNoiseSource source, String runId);

  /** The accountant the baseline uses, for the {@code accountant} column. */
  String accountant();
}
