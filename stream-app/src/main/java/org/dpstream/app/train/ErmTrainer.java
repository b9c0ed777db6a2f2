package org.dpstream.app.train;

import java.util.List;
import java.util.function.IntConsumer;
import org.dpstream.core.data.LabelledData;
import org.dpstream.core.erm.CompositeObjective;
import org.dpstream.core.erm.ErmAlgorithms;
import org.dpstream.core.erm.ErmDataset;
import org.dpstream.core.erm.ErmOptions;
import org.dpstream.core.erm.ErmProblem;
import org.dpstream.core.erm.ErmRun;
import org.dpstream.core.erm.FeatureBounds;
import org.dpstream.core.erm.Regularizer;
import org.dpstream.core.loss.GlmLoss;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.random.KeyedNoiseSource;

/**
 * The train command's only link to {@code org.dpstream.core.erm}: builds the problem, runs the named
 * algorithm, evaluates the objective. Public so the bench's erm command can share the translation.
 */
public final class ErmTrainer {

  /** The registered algorithm names. */
  public static final List<String> ALGORITHMS = ErmAlgorithms.names();

  /**
   * A trained model and its accounting.
   *
   * @param passWeights w^0, then the model after each pass
   * @param accountant the accountant that states {@code epsilonSpent} and {@code deltaSpent}
   * @param description ErmRun.describe(): algorithm, schedule, accountant, noise
   */
  public record Trained(double[] weights, List<double[]> passWeights, double epsilonSpent, double deltaSpent,
      String accountant, String description, long updates) {}

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
   * Trains privately.
   *
   * @param onPass called with 1, 2, ... after every pass
   * @throws IllegalArgumentException if the core rejects the problem (e.g. epsilon &gt; 1 with the papers'
   *     closed-form calibration)
   */
  public static Trained train(ErmDataset data, ErmSettings settings, KeyedNoiseSource source, String runId,
      IntConsumer onPass) {
    ErmOptions options = ErmOptions.defaults().withClipNorm(settings.clip()).withStepScale(settings.stepScale());
    if (!Double.isNaN(settings.residualClip())) {
      options = options.withResidualClip(settings.residualClip());
    }
    ErmProblem problem = ErmProblem.of(data, objective(settings),
        new PrivacyBudget(settings.epsilon(), settings.delta()), settings.passes(), options);
    ErmRun run = ErmAlgorithms.byName(settings.algorithm())
        .train(problem, source, runId, (pass, weights) -> onPass.accept(pass));
    PrivacyBudget spent = run.privacySpent().orElseThrow();
    String accountant = settings.algorithm().equals("dpsgd")
        ? "rdp-poisson-gaussian(add/remove)/" + options.rdpConversion().citation()
        : options.zcdpRule().accountantName() + "(replace-one; spent by zcdp-cks20)";
    return new Trained(run.finalWeights(), run.passWeights(), spent.epsilon(), spent.delta(), accountant,
        run.describe(), run.updates());
  }

  /** F(w) = f(w) + psi(w) over {@code data}. */
  public static double objective(ErmDataset data, ErmSettings settings, double[] weights) {
    return objective(settings).value(weights, data);
  }
}
