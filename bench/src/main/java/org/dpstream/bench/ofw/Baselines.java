package org.dpstream.bench.ofw;

import org.dpstream.core.online.baseline.BatchProblem;
import org.dpstream.core.online.baseline.NoisySfw;
import org.dpstream.core.online.baseline.NoisySgd;
import org.dpstream.core.privacy.random.KeyedNoiseSource;

/** The batch baselines of dpstream-core, by the algorithm named on the command line. */
final class Baselines {

  private Baselines() {}

  static BaselineTrainer forAlgorithm(Algorithm algorithm) {
    return switch (algorithm) {
      case NOISYSFW -> new BaselineTrainer() {
        @Override
        public Trained train(BatchProblem problem, KeyedNoiseSource source, String runId) {
          return new Trained(NoisySfw.train(problem, source, runId), NoisySfw.describe(problem));
        }

        @Override
        public String accountant() {
          return "bgn21-generalized-gaussian";
        }
      };
      case NOISYSGD -> new BaselineTrainer() {
        @Override
        public Trained train(BatchProblem problem, KeyedNoiseSource source, String runId) {
          return new Trained(NoisySgd.train(problem, source, runId), NoisySgd.describe(problem));
        }

        @Override
        public String accountant() {
          return "bfgt20-gaussian";
        }
      };
      case OFW -> throw new IllegalArgumentException(algorithm.cliName() + " is not a batch baseline");
    };
  }
}
