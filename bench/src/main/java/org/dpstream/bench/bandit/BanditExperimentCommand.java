package org.dpstream.bench.bandit;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.Callable;
import org.dpstream.options.FashionMnistDirectoryOption;
import org.dpstream.options.OptionChecks;
import org.dpstream.options.OutputDirectoryOption;
import org.dpstream.options.ParsingConverter;
import org.dpstream.options.PrivacyOptions;
import org.dpstream.options.ProgressBar;
import org.dpstream.bandit.env.BanditEnvironment;
import org.dpstream.bandit.env.SyntheticLinearEnvironment;
import org.dpstream.bench.common.ExperimentKeys;
import org.dpstream.core.data.MissingDatasetException;
import org.dpstream.core.online.AccountantChoice;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine;

/**
 * {@code dpstream-bench bandit}: the bandit experiment of Han et al., section 5 (Figure 5.1: DP-HDB
 * against DP-UCB, T = 10000, d = 50, K = 2, epsilon = 1), on the synthetic environment or on
 * Fashion-MNIST as a 10-armed bandit. Every run is (epsilon, delta)-JDP at the stated level; the seed
 * determines the environment and the noise key (a fixed public experiment secret: reproducible, not for
 * private data).
 */
@Command(
    name = "bandit",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Reproduce the bandit experiment of Han et al. (section 5, Figure 5.1): private contextual bandits.",
      "Writes DIR/results.csv, DIR/cumulative_regret.png and DIR/summary.txt; prints the summary."
    },
    footer = {"", "Example: bandit --env synthetic --d 50 --K 2 --T 10000 --seeds 5 --epsilon 1"
        + " --algorithms random,greedy,dphdb,dpucb,dplinear --out /tmp/bandit"})
public final class BanditExperimentCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--env", paramLabel = "ENV", defaultValue = BanditEnvironments.SYNTHETIC,
      description = "synthetic (section 5) or fashion-mnist (10 arms, reward 1 for the true class). Default: ${DEFAULT-VALUE}.")
  String env;

  @Option(names = "--d", paramLabel = "D",
      description = "Context dimension (synthetic; default 50). Fashion-MNIST fixes d = (28 / pool)^2.")
  Integer d;

  @Option(names = "--K", paramLabel = "K",
      description = "Number of arms (synthetic; default 2). Fashion-MNIST fixes K = 10.")
  Integer arms;

  @Option(names = "--sparsity", paramLabel = "S",
      description = "Synthetic: non-zero coordinates of each arm's theta* (the paper's 5 by default; all of them"
          + " when d < S).")
  Integer sparsity;

  @Option(names = "--T", paramLabel = "T", defaultValue = "10000", description = "Rounds. Default: ${DEFAULT-VALUE}.")
  int horizon;

  @Option(names = "--seeds", paramLabel = "N", defaultValue = "5",
      description = "Number of seeds; seeds 1..N (environment and noise key). Default: ${DEFAULT-VALUE}.")
  int seeds;

  @Mixin PrivacyOptions privacy; // --epsilon, --delta (default 1/T, as in the paper)

  @Option(names = "--algorithms", split = ",", paramLabel = "ALG", defaultValue = "random,greedy,dphdb,dpucb,dplinear",
      converter = AlgorithmConverter.class,
      description = "Algorithms: default (the service's default policy for the spec: DP-Linear or DP-HDB), dphdb,"
          + " dpucb, dplinear (private); random (uniform arms) and greedy (non-private ridge)"
          + " as references. Default: ${DEFAULT-VALUE}.")
  List<BanditAlgorithm> algorithms;

  @Mixin OutputDirectoryOption output;

  @Mixin FashionMnistDirectoryOption dataDirectory;

  @Option(names = "--pool", paramLabel = "P", defaultValue = "1",
      description = "Fashion-MNIST: average P x P pixel blocks (1, 2, 4, 7, 14, 28); DP-UCB costs O(K d^3) per round. Default: ${DEFAULT-VALUE}.")
  int pool;

  @Option(names = "--preselection-gap", paramLabel = "H", defaultValue = "inf",
      description = "DP-HDB's pre-selection gap h_sub > 0, or inf (off: every arm pre-selected). Default: ${DEFAULT-VALUE}.")
  String preSelectionGap;

  @Option(names = "--dplinear-accountant", paramLabel = "ACC", defaultValue = "factorization",
      converter = LinearAccountantConverter.class,
      description = "DP-Linear's prefix-sum mechanism: factorization or zcdp (the Gaussian tree). Default: ${DEFAULT-VALUE}.")
  AccountantChoice linearAccountant;

  @Option(names = "--dplinear-releases", paramLabel = "N", defaultValue = "100",
      description = "DP-Linear's statistics releases over the horizon (refresh period ceil(T / N)). Default: ${DEFAULT-VALUE}.")
  int linearReleases;

  @Option(names = "--max-contributions", split = ",", paramLabel = "K",
      description = "Person-level cost instead of the algorithm comparison: for each k, DP-Linear accounted for k"
          + " rounds of one person at --epsilon, against DP-Linear at event level under the naive group-privacy"
          + " bound (epsilon / k), on a stream of persons sending k rounds each; regret / random per k"
          + " (DIR/" + PersonLevelCost.FILE_NAME + ").")
  List<Integer> maxContributions;

  /** {@code --algorithms}: {@link BanditAlgorithm#parse}. */
  static final class AlgorithmConverter extends ParsingConverter<BanditAlgorithm> {
    AlgorithmConverter() {
      super(BanditAlgorithm::parse);
    }
  }

  /** {@code --dplinear-accountant}: an {@link AccountantChoice} of DP-Linear's Gaussian statistics only. */
  static final class LinearAccountantConverter extends ParsingConverter<AccountantChoice> {
    LinearAccountantConverter() {
      super(name -> {
        AccountantChoice choice = AccountantChoice.parse(name);
        if (choice != AccountantChoice.FACTORIZATION && choice != AccountantChoice.ZCDP) {
          throw new IllegalArgumentException("expected factorization or zcdp, got " + name);
        }
        return choice;
      });
    }
  }

  @Override
  public Integer call() throws IOException {
    List<BanditAlgorithm> algorithmList = new ArrayList<>(new LinkedHashSet<>(algorithms));
    PrintWriter stdout = spec.commandLine().getOut();
    PrintWriter stderr = spec.commandLine().getErr();
    BanditEnvironments environments;
    try {
      environments = environments();
    } catch (MissingDatasetException e) {
      stderr.println("bandit: " + e.getMessage());
      stderr.flush();
      return 1;
    }
    int dValue = resolve(d, 50, environments.fixedDimension(), "--d");
    int kValue = resolve(arms, 2, environments.fixedArms(), "--K");
    validateNumbers(dValue, kValue);
    require(sparsity == null || environments.fixedDimension() == 0, "--sparsity: only for --env synthetic");
    int sparsityValue = sparsity == null ? SyntheticLinearEnvironment.SPARSITY : sparsity;
    require(sparsityValue >= 1, "--sparsity: must be >= 1, got " + sparsityValue);
    double deltaValue = privacy.delta(1.0 / horizon);
    BanditPolicies.Options options = new BanditPolicies.Options(parseGap(), linearAccountant, linearReleases);
    require(linearReleases >= 2, "--dplinear-releases: need at least 2, got " + linearReleases);
    if (maxContributions != null) {
      require(maxContributions.stream().allMatch(k -> k >= 1 && k <= horizon / 2),
          "--max-contributions: each k must be in [1, T / 2], got " + maxContributions);
      require(linearAccountant == AccountantChoice.FACTORIZATION || linearReleases >= horizon,
          "--max-contributions with --dplinear-accountant zcdp needs one round per leaf (--dplinear-releases T): the"
              + " tree's bound for k rounds of one person holds only then");
      return PersonLevelCost.run(maxContributions, environments, dValue, kValue, sparsityValue, horizon, seeds,
          privacy.epsilon(), deltaValue, options, output.create(), stdout, stderr);
    }

    Path out = output.create();
    int total = seeds * algorithmList.size();
    stderr.println("bandit: " + total + " runs into " + out.toAbsolutePath()
        + " (noise keys from the fixed experiment secret: reproducible, not for private data)");
    stderr.flush();
    ProgressBar progress = ProgressBar.forStream(stderr, total);
    List<BanditRunResult> results = new ArrayList<>();
    for (long seed = 1; seed <= seeds; seed++) {
      for (BanditAlgorithm algorithm : algorithmList) {
        BanditRunSpec run = new BanditRunSpec(algorithm, environments.name(), dValue, kValue, horizon, privacy.epsilon(),
            deltaValue, seed);
        BanditEnvironment environment = environments.create(dValue, kValue, sparsityValue, seed);
        results.add(BanditRunner.run(run, environment,
            BanditPolicies.create(run, environment.bounds(), ExperimentKeys.forSeed(seed), options)));
        progress.advance(run.label());
      }
    }

    Path csv = BanditResultsCsv.write(out, results);
    Path plot = RegretPlot.write(out, results);
    String summary = BanditSummary.render(results) + "\n"
        + "regret = sum_t max_a mean_{t,a} - mean_{t,a_t}; vs random = mean regret / random's mean regret;"
        + " accuracy = fraction of rounds whose arm was optimal"
        + " (the true class on fashion-mnist); std over seeds (n - 1); seconds = policy time per run.\n";
    Path summaryFile = Files.writeString(out.resolve(BanditSummary.FILE_NAME), summary);
    stdout.println();
    stdout.print(summary);
    stdout.println("wrote " + csv + ", " + plot + " and " + summaryFile);
    stdout.flush();
    return 0;
  }

  private BanditEnvironments environments() throws IOException {
    return switch (env.strip()) {
      case BanditEnvironments.SYNTHETIC -> BanditEnvironments.synthetic();
      case BanditEnvironments.FASHION_MNIST -> {
        require(pool >= 1 && 28 % pool == 0, "--pool: must divide 28, got " + pool);
        yield BanditEnvironments.fashionMnist(dataDirectory.path(), pool);
      }
      default -> throw new ParameterException(spec.commandLine(),
          "--env: unknown environment '" + env + "'; expected synthetic or fashion-mnist");
    };
  }

  /** The value the data fixes (if any; a different --option is an error), else the option or the default. */
  private int resolve(Integer option, int defaultValue, int fixedByData, String name) {
    if (fixedByData > 0) {
      require(option == null || option == fixedByData,
          name + ": " + env + " fixes it to " + fixedByData + ", got " + option);
      return fixedByData;
    }
    return option != null ? option : defaultValue;
  }

  private void validateNumbers(int dValue, int kValue) {
    require(dValue >= 1, "--d: the dimension must be >= 1, got " + dValue);
    require(kValue >= 2, "--K: need at least 2 arms, got " + kValue);
    require(horizon >= 2, "--T: need at least 2 rounds, got " + horizon);
    require(seeds >= 1, "--seeds: need at least one seed, got " + seeds);
    privacy.check(spec);
  }

  private double parseGap() {
    String text = preSelectionGap.strip();
    double gap;
    try {
      gap = text.equalsIgnoreCase("inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(text);
    } catch (NumberFormatException e) {
      gap = Double.NaN;
    }
    require(gap > 0, "--preselection-gap: must be positive or inf, got " + preSelectionGap);
    return gap;
  }

  private void require(boolean condition, String message) {
    OptionChecks.require(spec, condition, message);
  }
}
