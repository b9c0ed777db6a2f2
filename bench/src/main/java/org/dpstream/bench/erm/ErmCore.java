package org.dpstream.bench.erm;

import java.util.List;
import org.dpstream.core.data.LabelledData;
import org.dpstream.core.erm.ErmDataset;
import org.dpstream.core.erm.training.ErmSettings;
import org.dpstream.core.erm.training.ErmTrainer;
import org.dpstream.core.privacy.random.KeyedNoiseSource;

/**
 * The bench's only link to {@code org.dpstream.core.erm} (beyond the train command's translation of the
 * settings, {@link ErmTrainer}): one prepared problem per data set and objective.
 */
final class ErmCore {

  /** A run's released models: w^0, then the model after each pass; and the run's description. */
  record Run(List<double[]> passWeights, String description) {}

  private final ErmDataset data;
  private final ErmSettings objectiveSettings;

  private ErmCore(ErmDataset data, ErmSettings objectiveSettings) {
    this.data = data;
    this.objectiveSettings = objectiveSettings;
  }

  /**
   * Prepares the data (which must respect the public bounds) and the objective of {@code settings} (loss,
   * regulariser, and whether it is stated on features scaled by their bounds).
   */
  static ErmCore prepare(LabelledData train, double[] bounds, ErmSettings settings) {
    return new ErmCore(ErmTrainer.dataset(train, bounds), settings);
  }

  /** F(w) on the training data, w in original units. */
  double objective(double[] w) {
    return ErmTrainer.objective(data, objectiveSettings, w);
  }

  /** The minimiser from the non-private reference solver, in original units: not private. */
  double[] optimalWeights() {
    return ErmTrainer.nonPrivateOptimum(data, objectiveSettings);
  }

  /** F* from the non-private reference solver: not private, for the relative error only. */
  double optimum() {
    return objective(optimalWeights());
  }

  /** Trains with the algorithm, budget and hyper-parameters of {@code settings}. */
  Run run(ErmSettings settings, KeyedNoiseSource source, String runId) {
    ErmTrainer.Trained trained = ErmTrainer.train(data, settings, source, runId, pass -> { });
    return new Run(trained.passWeights(), trained.description());
  }
}
