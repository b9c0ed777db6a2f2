package org.dpstream.bench.ofw;

import org.dpstream.bench.common.ExperimentKeys;
import org.dpstream.core.geometry.LpBall;
import org.dpstream.core.loss.DataBounds;
import org.dpstream.core.loss.GlmLoss;
import org.dpstream.core.online.AccountantChoice;
import org.dpstream.core.online.IncrementClipping;
import org.dpstream.core.online.OnlineEstimator;
import org.dpstream.core.online.OnlineEstimators;
import org.dpstream.core.online.NoiseChoice;
import org.dpstream.core.online.OnlineModelSpec;
import org.dpstream.core.online.baseline.BatchProblem;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.PrivacyLedger;

/**
 * Runs one algorithm on one data set and seed, at exactly the stated (epsilon, delta), and scores it.
 *
 * <p>OFW consumes the T training samples once, in order, as a stream with horizon T; its released
 * parameters are scored at the checkpoints (post-processing of released values, excluded from the
 * timing). After the run the ledger must show a loss within the budget, or the run fails.
 */
final class ExperimentRunner {

  private final int checkpointCount;
  private final IncrementClipping clipping;
  private final double learningRate;
  private NoiseChoice noise; // null: the service's default for the run's accountant

  /** @param checkpointCount how many log-spaced steps to score, at least 2 */
  ExperimentRunner(int checkpointCount) {
    this(checkpointCount, IncrementClipping.WORST_CASE, 1);
  }

  /**
   * @param clipping DP-TOFW's increment clipping (DP-POFW, p = 1, always uses the worst case)
   * @param learningRate lr of the step size min(1, lr / (t + 1))
   */
  ExperimentRunner(int checkpointCount, IncrementClipping clipping, double learningRate) {
    if (checkpointCount < 2) {
      throw new IllegalArgumentException("need at least 2 checkpoints, got " + checkpointCount);
    }
    this.checkpointCount = checkpointCount;
    this.clipping = clipping;
    this.learningRate = learningRate;
  }

  /** The noise sampler of every online run; null (the default) takes the service's default per run. */
  ExperimentRunner withNoise(NoiseChoice choice) {
    this.noise = choice;
    return this;
  }

  /**
   * The run's sampler: the one given, else the service's default (ModelConfig): discrete under accountant auto or
   * zcdp (DP-TOFW's lattice noise, DP-POFW's fixed-point exponential mechanism), continuous under the others.
   */
  NoiseChoice noiseFor(RunSpec run) {
    if (noise != null) {
      return noise;
    }
    boolean exactApplies = run.accountant() == AccountantChoice.AUTO || run.accountant() == AccountantChoice.ZCDP;
    return exactApplies ? NoiseChoice.DISCRETE : NoiseChoice.CONTINUOUS;
  }

  RunResult run(RunSpec run, RegressionDataset data) {
    if (data.dimension() != run.d() || data.trainLabels().length != run.horizon() || data.p() != run.p()) {
      throw new IllegalArgumentException("data set does not match the run " + run.label());
    }
    return run.algorithm().online() ? runOnline(run, data) : runBatch(run, data);
  }

  private RunResult runOnline(RunSpec run, RegressionDataset data) {
    SubOpt metric = SubOpt.on(data);
    int k = run.unit().maxContributions();
    boolean group = run.unit().name().equals("group");
    // Group privacy: (e, d)-DP per sample gives (k e, k e^((k - 1) e) d) per person of k samples.
    PrivacyBudget budget = group
        ? new PrivacyBudget(run.epsilon() / k, run.delta() / (k * Math.exp((k - 1) * run.epsilon() / k)))
        : new PrivacyBudget(run.epsilon(), run.delta());
    long started = System.nanoTime();
    NoiseChoice sampling = noiseFor(run);
    OnlineModelSpec spec = OnlineModelSpec.withDerivedClipping(
        run.runId(), run.d(), GlmLoss.squared(), LpBall.of(run.p(), RegressionDataset.RADIUS), budget,
        run.horizon(), data.bounds(), run.accountant())
        .withIncrementClipping(clippingFor(run))
        .withLearningRate(learningRate)
        .withNoise(sampling)
        .withParticipations(group ? 1 : k);
    OnlineEstimator estimator = OnlineEstimators.start(spec, ExperimentKeys.forSeed(run.seed()));
    long trainingNanos = System.nanoTime() - started;

    int[] checkpoints = Checkpoints.logSpaced(run.horizon(), checkpointCount);
    double[] trajectory = new double[checkpoints.length];
    double[][] x = data.trainFeatures();
    double[] y = data.trainLabels();
    int t = 0;
    for (int c = 0; c < checkpoints.length; c++) {
      long segment = System.nanoTime();
      for (; t < checkpoints[c]; t++) {
        estimator.step(x[t], y[t]);
      }
      trainingNanos += System.nanoTime() - segment;
      trajectory[c] = metric.of(estimator.parameters());
    }
    double[] finalTheta = estimator.parameters();
    requireWithinBudget(estimator.ledger(), budget, run);
    double risk = metric.risk(finalTheta);
    return new RunResult(run, run.accountantName(), sampling.name().toLowerCase(java.util.Locale.ROOT), risk,
        metric.ofRisk(risk), trainingNanos / 1e9, estimator.mechanism(), estimator.ledger().spentEpsilon(), estimator.ledger().spentDelta(),
        checkpoints, trajectory);
  }

  /**
   * p = 1 (DP-POFW) uses the worst case, and so does adaptive clipping under the paper's accountant (not zCDP) or
   * below a horizon of 4 (a warm-up block and another), as the service's default does.
   */
  private IncrementClipping clippingFor(RunSpec run) {
    if (run.p() == 1 || (clipping.isAdaptive() && (run.accountant() == AccountantChoice.PAPER || run.horizon() < 4))) {
      return IncrementClipping.WORST_CASE;
    }
    return clipping;
  }

  private RunResult runBatch(RunSpec run, RegressionDataset data) {
    BaselineTrainer trainer = Baselines.forAlgorithm(run.algorithm());
    SubOpt metric = SubOpt.on(data);
    PrivacyBudget budget = new PrivacyBudget(run.epsilon(), run.delta());
    DataBounds bounds = data.bounds();
    long started = System.nanoTime();
    BatchProblem problem = new BatchProblem(data.trainFeatures(), data.trainLabels(), GlmLoss.squared(),
        LpBall.of(run.p(), RegressionDataset.RADIUS), budget, bounds);
    BaselineTrainer.Trained trained = trainer.train(problem, ExperimentKeys.forSeed(run.seed()), run.runId());
    double seconds = (System.nanoTime() - started) / 1e9;
    double risk = metric.risk(trained.parameters());
    return new RunResult(run, trainer.accountant(), "-", risk, metric.ofRisk(risk), seconds, trained.mechanism(),
        run.epsilon(), run.delta(), new int[0], new double[0]);
  }

  private static void requireWithinBudget(PrivacyLedger ledger, PrivacyBudget budget, RunSpec run) {
    if (!(ledger.spentEpsilon() <= budget.epsilon() && ledger.spentDelta() <= budget.delta())) {
      throw new IllegalStateException("run " + run.label() + " spent (" + ledger.spentEpsilon() + ", "
          + ledger.spentDelta() + "), beyond its budget " + budget);
    }
    if (ledger.epoch() != 0) {
      throw new IllegalStateException("run " + run.label() + " went past its horizon (epoch " + ledger.epoch() + ")");
    }
  }
}
