package org.dpstream.core.erm;

import org.dpstream.core.privacy.random.KeyedNoiseSource;

/**
 * A (private) ERM training algorithm. Implementations: {@link DpCd}, {@link DpSkgd}, {@link DpSgd}; by
 * name through {@link ErmAlgorithms}.
 *
 * <p>Contract: every random choice (coordinates, blocks, minibatches, noise) is drawn from {@code
 * source.forStream(purpose, runId)} with a purpose naming the algorithm family, so a run is a
 * deterministic function of (key, runId, problem) and reproducible; {@code runId} must be unique per run,
 * since two runs of one family with equal key and runId share their noise. Implementations are immutable
 * and thread-safe; a run allocates its state once and nothing per sample.
 */
public interface ErmAlgorithm {

  /** The registered name, e.g. {@code dpcd-smooth}. */
  String name();

  /** Which neighbouring data sets the algorithm's accountant is proved for. */
  enum Adjacency {
    /** Data sets that differ in one record replaced (DP-CD, DP-SkGD, the perturbation baselines). */
    REPLACE_ONE,
    /** One record added or removed (DP-SGD's subsampled-Gaussian accountant). */
    ADD_REMOVE
  }

  /** The adjacency of its guarantee; replace-one unless stated. */
  default Adjacency adjacency() {
    return Adjacency.REPLACE_ONE;
  }

  /**
   * Trains on {@code problem}.
   *
   * @param listener receives the model after every pass; {@link PassListener#NONE} to ignore
   * @throws IllegalArgumentException if the options this algorithm needs are missing or invalid for the
   *     problem (e.g. no clip norm for a private DP-CD run, epsilon &gt; 1 with the papers' closed form)
   */
  ErmRun train(ErmProblem problem, KeyedNoiseSource source, String runId, PassListener listener);
}
