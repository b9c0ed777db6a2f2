package org.dpstream.bench.ofw;

import java.util.Optional;

/**
 * The adapter to the batch baselines of dpstream-core ({@code org.dpstream.core.online.baseline}:
 * {@code NoisySfw.train(BatchProblem, KeyedNoiseSource, String)} and {@code NoisySgd.train(...)}).
 * They are not part of dpstream-core in this build, so none is available and the command refuses
 * {@code noisysfw} and {@code noisysgd} before running anything. When they are merged, this is the
 * only class that changes: return a {@link BaselineTrainer} that builds a {@code BatchProblem} from its
 * arguments and calls the baseline.
 */
final class Baselines {

  private Baselines() {}

  /** The trainer of a batch algorithm, or empty if this build has none. */
  static Optional<BaselineTrainer> forAlgorithm(Algorithm algorithm) {
    if (algorithm.online()) {
      throw new IllegalArgumentException(algorithm.cliName() + " is not a batch baseline");
    }
    return Optional.empty();
  }

  /** Why {@link #forAlgorithm} is empty, for the command's error message. */
  static String unavailableReason(Algorithm algorithm) {
    return algorithm.cliName() + " is not available in this build of dpstream-bench: the batch baselines"
        + " (org.dpstream.core.online.baseline) are not part of dpstream-core yet. Available: "
        + Algorithm.OFW.cliName() + ".";
  }
}
