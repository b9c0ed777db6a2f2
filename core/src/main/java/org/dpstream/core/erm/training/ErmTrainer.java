package org.dpstream.core.erm.training;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;
import org.dpstream.core.data.LabelledData;
import org.dpstream.core.erm.BatchQuantileClipping;
import org.dpstream.core.erm.CompositeObjective;
import org.dpstream.core.erm.ErmAlgorithm;
import org.dpstream.core.erm.ErmAlgorithms;
import org.dpstream.core.erm.ErmDataset;
import org.dpstream.core.erm.ErmOptions;
import org.dpstream.core.erm.ErmProblem;
import org.dpstream.core.erm.ErmRun;
import org.dpstream.core.erm.FeatureBounds;
import org.dpstream.core.erm.FeatureScaling;
import org.dpstream.core.erm.NonPrivateSolver;
import org.dpstream.core.erm.Regularizer;
import org.dpstream.core.loss.GlmLoss;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.PrivacyLedger;
import org.dpstream.core.privacy.random.KeyedNoiseSource;

/**
 * The link of the train command and of the bench's erm experiments to {@code org.dpstream.core.erm}: builds
 * the problem, runs the named algorithm, evaluates the objective.
 */
public final class ErmTrainer {

  /** The registered algorithm names. */
  public static final List<String> ALGORITHMS = ErmAlgorithms.names();

  /**
   * A trained model and its accounting.
   *
   * @param passWeights w^0, then the model after each pass
   * @param ledger the run's ledger, stated for the user's replace-one (--epsilon, --delta) over n records (the
   *     release's horizon); null for the non-private reference run
   * @param description ErmRun.describe(): algorithm, schedule, accountant, noise
   */
  public record Trained(double[] weights, List<double[]> passWeights, PrivacyLedger ledger, String description,
      long updates) {

    /** Epsilon spent; 0 without privacy. */
    public double epsilonSpent() {
      return ledger == null ? 0 : ledger.spentEpsilon();
    }

    /** Delta spent; 0 without privacy. */
    public double deltaSpent() {
      return ledger == null ? 0 : ledger.spentDelta();
    }

    /** The accountant that states the spend. */
    public String accountant() {
      return ledger == null ? NOT_PRIVATE : ledger.accountant();
    }
  }

  /** The accountant of the non-private reference run. */
  static final String NOT_PRIVATE = "none (NOT PRIVATE)";

  private ErmTrainer() {}

  /** Throws an IllegalArgumentException naming the known algorithms if {@code name} is not one. */
  public static void requireAlgorithm(String name) {
    ErmAlgorithms.byName(name);
  }

  /** The core data set: the declared bounds must hold (checked). */
  public static ErmDataset dataset(LabelledData data, double[] bounds) {
    return ErmDataset.of(data.features(), data.labels(), FeatureBounds.of(bounds));
  }

  public static CompositeObjective objective(ErmSettings settings) {
    GlmLoss loss = settings.loss() == ErmSettings.Loss.LOGISTIC ? GlmLoss.logistic() : GlmLoss.squared();
    Regularizer regularizer = switch (settings.reg()) {
      case NONE -> Regularizer.none();
      case L2 -> Regularizer.l2(settings.lambda());
      case L1 -> Regularizer.l1(settings.lambda());
      case ELASTIC_NET -> Regularizer.elasticNet(settings.lambda(), settings.l1Ratio());
    };
    return CompositeObjective.of(loss, regularizer);
  }

  /**
   * Trains privately. With {@link ErmSettings#scaleByBounds} the algorithm runs on x_ij / b_j (bounds all 1)
   * and every model returned is in the original units.
   *
   * @param onPass called with 1, 2, ... after every pass
   * @throws IllegalArgumentException if the core rejects the problem
   */
  public static Trained train(ErmDataset data, ErmSettings settings, KeyedNoiseSource source, String runId,
      IntConsumer onPass) {
    return train(data, settings, 1, source, runId, onPass);
  }

  /**
   * Trains privately per person: the guarantee covers data sets that differ in up to {@code maxContributions} = k
   * records, the rows of one person after {@link org.dpstream.core.erm.ContributionBounding} kept at most k of
   * them. k = 1 is {@link #train(ErmDataset, ErmSettings, KeyedNoiseSource, String, IntConsumer)}.
   */
  public static Trained train(ErmDataset data, ErmSettings settings, int maxContributions, KeyedNoiseSource source,
      String runId, IntConsumer onPass) {
    return run(data, settings, maxContributions, true, source, runId, onPass);
  }

  /**
   * The same algorithm, settings and schedule without noise, spending nothing: NOT PRIVATE, for the data
   * owner's judgement of what privacy costs. Random choices (samples, coordinates) still come from
   * {@code source}.
   */
  public static Trained trainWithoutNoise(ErmDataset data, ErmSettings settings, KeyedNoiseSource source,
      String runId) {
    return run(data, settings, 1, false, source, runId, pass -> { });
  }

  private static Trained run(ErmDataset data, ErmSettings settings, int maxContributions, boolean isPrivate,
      KeyedNoiseSource source, String runId, IntConsumer onPass) {
    FeatureScaling scaling = FeatureScaling.byBounds(data.bounds());
    ErmDataset trainedOn = settings.scaleByBounds() ? scaling.apply(data) : data;
    ErmOptions options = options(settings, trainedOn);
    CompositeObjective objective = objective(settings);
    ErmAlgorithm algorithm = ErmAlgorithms.byName(settings.algorithm());
    boolean groupPrivacy = settings.replaceOne() && algorithm.adjacency() == ErmAlgorithm.Adjacency.ADD_REMOVE;
    PrivacyBudget budget = new PrivacyBudget(settings.epsilon(), settings.delta());
    ErmProblem problem = isPrivate
        ? ErmProblem.of(trainedOn, objective, groupPrivacy ? addRemoveBudget(budget) : budget, settings.passes(),
            options)
        : ErmProblem.nonPrivate(trainedOn, objective, settings.passes(), options);
    ErmRun run = algorithm.train(problem.withMaxContributions(maxContributions), source, runId,
        (pass, weights) -> onPass.accept(pass));
    List<double[]> passWeights = new ArrayList<>();
    for (double[] w : run.passWeights()) {
      passWeights.add(settings.scaleByBounds() ? scaling.toOriginalUnits(w) : w);
    }
    double[] weights = settings.scaleByBounds() ? scaling.toOriginalUnits(run.finalWeights()) : run.finalWeights();
    PrivacyLedger ledger = run.ledger()
        .map(l -> replaceOneLedger(l, budget, groupPrivacy, maxContributions, data.size())).orElse(null);
    return new Trained(weights, passWeights, ledger, run.describe(), run.updates());
  }

  /**
   * The run's ledger as {@code train} states it: the user's replace-one budget over n records. With group
   * privacy (DP-SGD), the add/remove spend is converted by {@link #replaceOneBudget}; a spend that would not fit
   * the user's budget is refused here, before anything is written or published. With k = {@code maxContributions}
   * &gt; 1 the accountant names the unit: a person, whose up to k records are replaced together.
   */
  static PrivacyLedger replaceOneLedger(PrivacyLedger run, PrivacyBudget replaceOne, boolean groupPrivacy,
      int maxContributions, long records) {
    PrivacyBudget spent = new PrivacyBudget(run.spentEpsilon(), run.spentDelta());
    if (groupPrivacy) {
      spent = replaceOneBudget(spent);
    }
    return PrivacyLedger.open(replaceOne,
        run.accountant() + (groupPrivacy ? ", replace-one by group privacy" : "") + personUnit(maxContributions),
        records).reserve(spent);
  }

  /** The unit in a ledger's accountant: empty per record, else {@code ", per person: up to k records each"}. */
  static String personUnit(int maxContributions) {
    return maxContributions == 1 ? "" : ", per person: up to " + maxContributions + " records each";
  }

  /** Cap of the add/remove epsilon, so that e^epsilon and delta / (1 + e^epsilon) stay representable. */
  static final double LARGEST_ADD_REMOVE_EPSILON = 500;

  /**
   * The add/remove budget (e, delta/(1 + e^e)), e = epsilon/2, whose guarantee implies replace-one (epsilon,
   * delta): group privacy for a group of 2 turns (e, d) into (2e, (1 + e^e) d). Rounded down; e is capped at
   * {@value #LARGEST_ADD_REMOVE_EPSILON} (a stronger guarantee than asked, and no noise to speak of).
   */
  static PrivacyBudget addRemoveBudget(PrivacyBudget replaceOne) {
    double half = Math.min(LARGEST_ADD_REMOVE_EPSILON, Math.nextDown(replaceOne.epsilon() / 2));
    return new PrivacyBudget(half, Math.nextDown(replaceOne.delta() / (1 + Math.exp(half)) * (1 - 1e-9)));
  }

  /** The replace-one (2e, (1 + e^e) d) implied by an add/remove (e, d) guarantee. Rounded up. */
  static PrivacyBudget replaceOneBudget(PrivacyBudget addRemove) {
    return new PrivacyBudget(Math.nextUp(2 * addRemove.epsilon()),
        Math.nextUp((1 + Math.exp(addRemove.epsilon())) * addRemove.delta() * (1 + 1e-12)));
  }

  private static ErmOptions options(ErmSettings settings, ErmDataset trainedOn) {
    double clip = Double.isNaN(settings.clip())
        ? Math.sqrt(trainedOn.bounds().squaredNormBound())
        : settings.clip();
    ErmOptions options = ErmOptions.defaults().withClipNorm(clip).withStepScale(settings.stepScale())
        .withZcdpRule(settings.accountant().zcdpRule());
    if (!Double.isNaN(settings.residualClip())) {
      options = options.withResidualClip(settings.residualClip());
    }
    if (settings.adaptiveClip()) {
      BatchQuantileClipping clipping = BatchQuantileClipping.defaults();
      options = options.withQuantileClipping(Double.isNaN(settings.clipQuantile()) ? clipping
          : new BatchQuantileClipping(settings.clipQuantile(), clipping.learningRate(), clipping.countBudgetShare()));
    }
    if (!Double.isNaN(settings.expectedBatch())) {
      options = options.withBatchRate(Math.min(1.0, settings.expectedBatch() / trainedOn.size()));
    }
    return options;
  }

  /**
   * F(w) = f(w) + psi(w) over {@code data}, for a model in original units; with {@link
   * ErmSettings#scaleByBounds} the regulariser is that of the scaled problem, psi(w_j b_j), the objective
   * the algorithm minimised (the data-fit term is the same in both units).
   */
  public static double objective(ErmDataset data, ErmSettings settings, double[] weights) {
    CompositeObjective objective = objective(settings);
    if (!settings.scaleByBounds()) {
      return objective.value(weights, data);
    }
    double[] scaled = FeatureScaling.byBounds(data.bounds()).toScaledUnits(weights);
    return objective.dataFit(weights, data) + objective.regularizer().value(scaled);
  }

  /**
   * The non-private minimiser of the settings' objective (in original units): NOT PRIVATE, a reference for
   * the price of privacy.
   */
  public static double[] nonPrivateOptimum(ErmDataset data, ErmSettings settings) {
    FeatureScaling scaling = FeatureScaling.byBounds(data.bounds());
    ErmDataset trainedOn = settings.scaleByBounds() ? scaling.apply(data) : data;
    double[] w = NonPrivateSolver.solve(trainedOn, objective(settings), 1e-10, 20_000).weights();
    return settings.scaleByBounds() ? scaling.toOriginalUnits(w) : w;
  }
}
