package org.dpstream.bench.ofw;

import java.util.function.Function;
import org.dpstream.core.online.baseline.BatchProblem;
import org.dpstream.core.online.baseline.NoisySfw;
import org.dpstream.core.online.baseline.NoisySgd;
import org.dpstream.core.privacy.random.KeyedNoiseSource;

/** The batch baselines of dpstream-core, by the algorithm named on the command line. */
final class Baselines {

  private Baselines() {}

  static BaselineTrainer forAlgorithm(Algorithm algorithm) {
    return switch (algorithm) {
      case NOISYSFW -> new Baseline(NoisySfw::train, NoisySfw::describe, "bgn21-generalized-gaussian");
      case NOISYSGD -> new Baseline(NoisySgd::train, NoisySgd::describe, "bfgt20-gaussian");
      case OFW -> throw new IllegalArgumentException(algorithm.cliName() + " is not a batch baseline");
    };
  }

  /** A baseline's static entry point: {@code train(problem, source, runId)}. */
  @FunctionalInterface
  private interface Training {
    double[] train(BatchProblem problem, KeyedNoiseSource source, String runId);
  }

  private record Baseline(Training training, Function<BatchProblem, String> describe, String accountant)
      implements BaselineTrainer {

    @Override
    public Trained train(BatchProblem problem, KeyedNoiseSource source, String runId) {
      return new Trained(training.train(problem, source, runId), describe.apply(problem));
    }
  }
}
