package org.dpstream.bench.dda;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import org.dpstream.bench.common.ExperimentKeys;
import org.dpstream.core.distributed.DdaSettings;
import org.dpstream.core.distributed.DdaSimulation;
import org.dpstream.core.distributed.DpDdaAccountant;
import org.dpstream.core.distributed.DpDdaPrivacyReport;
import org.dpstream.core.distributed.DualAveragingProx;
import org.dpstream.core.distributed.GossipGraph;
import org.dpstream.core.distributed.GossipSampler;
import org.dpstream.core.distributed.HingeLoss;
import org.dpstream.core.distributed.HingeReferenceSolver;
import org.dpstream.core.distributed.StepSchedule;
import org.dpstream.core.erm.ErmDataset;

/**
 * Runs DP-DDA (Mode 1) for one (iota, epsilon, seed): T = ceil(epochs q / iota) rounds (one epoch = q / iota
 * rounds), sigma from Theorem 1 with the chosen constant, suboptimality of the network
 * average (1/n) sum_i x~_i at log-spaced rounds.
 *
 * @param graph the supergraph
 * @param gossip edge activation
 * @param schedule a_t, gamma_t
 * @param prox the regulariser
 * @param optimum F* of the training objective
 * @param epochs passes over the data
 * @param delta0 per-release delta of Lemma 4.1
 * @param constant the noise constant of Theorem 1
 * @param compositionSlack delta' of the composition, or NaN for the paper's choice
 * @param checkpoints number of log-spaced checkpoints
 * @param calibrateToReport true: sigma such that the reported (exact lemma chain) epsilon is the target, so all
 *     iota are compared at the guarantee actually obtained; false: Theorem 1's formula with the constant
 */
record DdaRunner(GossipGraph graph, GossipSampler.Mode gossip, StepSchedule schedule, DualAveragingProx prox,
    double optimum, double epochs, double delta0, DpDdaAccountant.NoiseConstant constant, double compositionSlack,
    int checkpoints, boolean calibrateToReport) {

  static final HingeLoss LOSS = HingeLoss.ofRowNormBound(1);

  static HingeReferenceSolver.Solution reference(ErmDataset train, DualAveragingProx prox, int iterations) {
    return HingeReferenceSolver.solve(train, LOSS, prox, iterations);
  }

  DpDdaAccountant accountant(int samplesPerNode, double iota) {
    long rounds = (long) Math.ceil(epochs * samplesPerNode / iota);
    DpDdaAccountant accountant = DpDdaAccountant.of(LOSS.lipschitz(), samplesPerNode, iota, delta0, rounds);
    return Double.isNaN(compositionSlack) ? accountant : accountant.withCompositionSlack(compositionSlack);
  }

  DdaRunResult run(DdaData data, double iota, double epsilon, long seed) {
    long start = System.nanoTime();
    List<ErmDataset> shards = DdaSimulation.partition(data.train(), graph.nodeCount());
    int q = shards.get(0).size();
    DpDdaAccountant accountant = accountant(q, iota);
    double sigma = calibrateToReport ? accountant.calibrateSigmaToReport(epsilon) : accountant.calibrateSigma(epsilon, constant);
    DpDdaPrivacyReport privacy = accountant.report(sigma, epsilon);
    GossipSampler sampler = new GossipSampler(graph, iota, gossip);
    String runId = String.format(Locale.ROOT, "dda/iota=%s/eps=%s/seed=%d", iota, epsilon, seed);
    DdaSimulation simulation = new DdaSimulation(shards, DdaSettings.of(iota, sigma, schedule, prox, LOSS), sampler,
        ExperimentKeys.forSeed(seed), runId);
    long[] rounds = logSpaced(accountant.rounds(), checkpoints);
    double[] trajectory = new double[rounds.length];
    int next = 0;
    while (simulation.completedRounds() < accountant.rounds()) {
      simulation.runRound();
      if (simulation.completedRounds() == rounds[next]) {
        trajectory[next++] =
            HingeReferenceSolver.objective(data.train(), LOSS, prox, simulation.networkAverageModel()) - optimum;
      }
    }
    double accuracy = HingeLoss.accuracy(data.test(), simulation.networkAverageModel());
    return new DdaRunResult(iota, epsilon, seed, accountant.rounds(), rounds, trajectory, accuracy,
        (System.nanoTime() - start) / 1e9, privacy);
  }

  /** About {@code count} distinct log-spaced rounds in [1, T], always ending at T. */
  static long[] logSpaced(long horizon, int count) {
    TreeSet<Long> rounds = new TreeSet<>();
    for (int k = 0; k < count; k++) {
      rounds.add(Math.max(1, Math.round(Math.pow(horizon, (double) k / Math.max(1, count - 1)))));
    }
    rounds.add(horizon);
    return new ArrayList<>(rounds).stream().mapToLong(Long::longValue).toArray();
  }
}
