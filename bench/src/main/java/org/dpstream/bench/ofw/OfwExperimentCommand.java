package org.dpstream.bench.ofw;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.dpstream.options.AccountantConverter;
import org.dpstream.options.NoiseConverter;
import org.dpstream.options.OptionChecks;
import org.dpstream.options.OutputDirectoryOption;
import org.dpstream.options.ParsingConverter;
import org.dpstream.options.PrivacyGridOptions;
import org.dpstream.options.ProgressBar;
import org.dpstream.core.online.AccountantChoice;
import org.dpstream.core.online.IncrementClipping;
import org.dpstream.core.online.NoiseChoice;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code dpstream-bench ofw}: the synthetic regression experiment of Han et al., section 5.2, at the
 * stated privacy level. Every run is (epsilon, delta)-DP with respect to one training sample under the
 * named accountant; nothing is tuned on private data and nothing loosens the guarantee.
 */
@Command(
    name = "ofw",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Reproduce section 5.2 of Han et al.: private online Frank-Wolfe on synthetic linear regression.",
      "Writes DIR/results.csv, DIR/trajectories.csv and one PNG of SubOpt against t per (p, d, T, epsilon);"
          + " prints mean and standard deviation per setting.",
      "Noise keys are derived from a fixed, public experiment secret so runs are reproducible;"
          + " never use this command's keys for real data."
    },
    footer = {"", "Example: ofw --p 1.5,inf --d 5 --T 10000 --seeds 10 --epsilon 1 --delta 1e-4 --algorithms ofw"
        + " --accountant paper --out /tmp/ofw"})
public final class OfwExperimentCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--p", split = ",", paramLabel = "P", converter = ExponentConverter.class, defaultValue = "1.5",
      description = "Exponent(s) of the lp geometry, >= 1 or 'inf' (p = 1: DP-POFW, p > 1: DP-TOFW). Default: ${DEFAULT-VALUE}.")
  List<Double> p;

  @Option(names = "--d", split = ",", paramLabel = "D", defaultValue = "5",
      description = "Dimension(s). Default: ${DEFAULT-VALUE}.")
  List<Integer> d;

  @Option(names = "--T", split = ",", paramLabel = "T", defaultValue = "10000",
      description = "Stream length(s) T = horizon of the online algorithm. Default: ${DEFAULT-VALUE}.")
  List<Integer> horizon;

  @Option(names = "--seeds", paramLabel = "N", defaultValue = "10",
      description = "Number of seeds; seeds 1..N (data and noise key). Default: ${DEFAULT-VALUE}.")
  int seeds;

  @Mixin PrivacyGridOptions privacy; // --epsilon(s), --delta (default 1/T for each T, as in the paper)

  @Option(names = "--algorithms", split = ",", paramLabel = "ALG", defaultValue = "ofw",
      converter = AlgorithmConverter.class, description = "Algorithms: ofw, noisysfw, noisysgd. Default: ${DEFAULT-VALUE}.")
  List<Algorithm> algorithms;

  @Option(names = "--accountant", split = ",", paramLabel = "ACC", defaultValue = "paper",
      converter = AccountantConverter.class,
      description = "Noise and accounting of OFW: paper (tree, eq. 3.2), zcdp (tree), factorization (square-root factorization, zCDP), blt (buffered linear Toeplitz, zCDP), auto (blt or the better tree, whichever predicts less error). Default: ${DEFAULT-VALUE}.")
  List<AccountantChoice> accountants;

  @Option(names = "--clip", paramLabel = "adaptive|worst-case|C", defaultValue = "adaptive",
      description = "DP-TOFW's increment clipping: adaptive (the whole increment clipped to a private online"
          + " estimate of a quantile of its norm, --clip-quantile; zCDP accountants only, --accountant paper runs"
          + " the worst case), worst-case (the paper's per-term bounds) or a threshold C (the whole increment"
          + " clipped to C in the noise's norm); p = 1 always uses the worst case. Default: ${DEFAULT-VALUE}.")
  String clip;

  @Option(names = "--noise", paramLabel = "continuous|discrete", defaultValue = "continuous",
      converter = NoiseConverter.class,
      description = "DP-TOFW's noise sampler: continuous (Ziggurat Gaussian) or discrete (the exact discrete"
          + " Gaussian on the lattice; --accountant auto or zcdp only, where auto means the zCDP tree); p = 1"
          + " always samples continuous noise. Default: ${DEFAULT-VALUE}.")
  NoiseChoice noise;

  @Option(names = "--clip-quantile", paramLabel = "Q", defaultValue = "0.5",
      description = "With --clip adaptive: the target quantile of the increments' norms, in (0, 1)."
          + " Default: ${DEFAULT-VALUE}.")
  double clipQuantile;

  @Option(names = "--learning-rate", paramLabel = "LR", defaultValue = "1",
      description = "lr of OFW's step size min(1, lr / (t + 1)); 1 is the paper's. Default: ${DEFAULT-VALUE}.")
  double learningRate;

  @Mixin OutputDirectoryOption output;

  @Option(names = "--max-contributions", split = ",", paramLabel = "K", defaultValue = "1",
      description = "Person-level runs: persons of K samples each, the budget per person; for each K > 1, one run"
          + " accounted for K participations (accountant name .../user-kK) and one by group privacy over an"
          + " event-level model at epsilon / K (.../group-kK). Online algorithms only. Default: ${DEFAULT-VALUE}"
          + " (event level).")
  List<Integer> maxContributions;

  @Option(names = "--checkpoints", paramLabel = "K", defaultValue = "50",
      description = "Log-spaced steps t at which OFW's SubOpt is recorded, >= 2. Default: ${DEFAULT-VALUE}.")
  int checkpoints;

  @Option(names = "--test-size", paramLabel = "N", defaultValue = "10000",
      description = "Size of the test set (the paper: 10000). Default: ${DEFAULT-VALUE}.")
  int testSize;

  private IncrementClipping parseClip() {
    if (clip.strip().equalsIgnoreCase("worst-case")) {
      return IncrementClipping.WORST_CASE;
    }
    if (clip.strip().equalsIgnoreCase("adaptive")) {
      if (!(clipQuantile > 0 && clipQuantile < 1)) {
        throw new CommandLine.ParameterException(spec.commandLine(),
            "--clip-quantile must be in (0, 1), got " + clipQuantile);
      }
      return IncrementClipping.adaptive(clipQuantile, IncrementClipping.DEFAULT_QUANTILE_SHARE);
    }
    try {
      return IncrementClipping.fixed(Double.parseDouble(clip.strip()));
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "--clip must be worst-case, adaptive or a threshold C > 0, got '" + clip + "'");
    }
  }

  /** {@code --algorithms}: {@link Algorithm#parse}. */
  static final class AlgorithmConverter extends ParsingConverter<Algorithm> {
    AlgorithmConverter() {
      super(Algorithm::parse);
    }
  }

  /** Parses p: a number >= 1, or inf / infinity. */
  static final class ExponentConverter implements CommandLine.ITypeConverter<Double> {
    @Override
    public Double convert(String value) {
      String v = value.strip().toLowerCase(Locale.ROOT);
      double p;
      if (v.equals("inf") || v.equals("infinity")) {
        p = Double.POSITIVE_INFINITY;
      } else {
        try {
          p = Double.parseDouble(v);
        } catch (NumberFormatException e) {
          throw new CommandLine.TypeConversionException("p must be a number >= 1 or 'inf', got '" + value + "'");
        }
      }
      if (!(p >= 1)) {
        throw new CommandLine.TypeConversionException("p must be >= 1 (or 'inf'), got '" + value + "'");
      }
      return p;
    }
  }

  @Override
  public Integer call() throws IOException {
    List<Algorithm> algorithmList = distinct(algorithms);
    List<AccountantChoice> accountantList = distinct(accountants);
    validateNumbers();
    List<RunSpec> runs = plan(algorithmList, accountantList);

    PrintWriter stdout = spec.commandLine().getOut();
    PrintWriter stderr = spec.commandLine().getErr();
    Path out = output.create();
    if (p.contains(1.0) && !accountantList.equals(List.of(AccountantChoice.PAPER))) {
      stderr.println("note: p = 1 runs DP-POFW, whose report-noisy-min is accounted as in the paper's Theorem 3.4"
          + " whatever --accountant says; those runs are listed with accountant 'paper'.");
    }
    stderr.println("ofw: " + runs.size() + " runs into " + out.toAbsolutePath()
        + " (noise keys from the fixed experiment secret: reproducible, not for real data)");
    stderr.flush();

    ExperimentRunner runner = new ExperimentRunner(checkpoints, parseClip(), learningRate).withNoise(checkedNoise(accountantList));
    ProgressBar progress = ProgressBar.forStream(stderr, runs.size());
    List<RunResult> results = new ArrayList<>();
    RegressionDataset data = null;
    long dataSeed = 0;
    for (RunSpec run : runs) {
      if (data == null || data.p() != run.p() || data.dimension() != run.d()
          || data.trainLabels().length != run.horizon() || dataSeed != run.seed()) {
        data = RegressionDataset.generate(run.p(), run.d(), run.horizon(), testSize, run.seed());
        dataSeed = run.seed();
      }
      results.add(runner.run(run, data));
      progress.advance(run.label());
    }

    Path csv = ResultsCsv.write(out, results);
    Path trajectories = TrajectoryCsv.write(out, results);
    List<Path> plots = SubOptPlot.write(out, results);
    stdout.println();
    stdout.print(SummaryTable.render(results));
    stdout.println();
    stdout.println("risk = test-set mean squared error; subopt = (L(theta^) - L(theta*)) / (L(0) - L(theta*));"
        + " std over seeds (n - 1); seconds = training wall time per run.");
    stdout.println("wrote " + csv + ", " + trajectories + " and " + plots.size() + " PNG(s):");
    plots.forEach(plot -> stdout.println("  " + plot));
    stdout.flush();
    return 0;
  }

  /** Settings outermost, seeds inside, so one data set serves every algorithm, accountant and epsilon. */
  private List<RunSpec> plan(List<Algorithm> algorithmList, List<AccountantChoice> accountantList) {
    List<RunSpec> runs = new ArrayList<>();
    require(maxContributions.stream().allMatch(k -> k == 1) || !accountantList.contains(AccountantChoice.PAPER),
        "--max-contributions K > 1 is accounted in zCDP: use --accountant zcdp, auto, factorization or blt, not paper");
    for (double pValue : distinct(p)) {
      for (int dValue : distinct(d)) {
        for (int tValue : distinct(horizon)) {
          double deltaValue = privacy.delta() != null ? privacy.delta() : 1.0 / tValue;
          for (long seed = 1; seed <= seeds; seed++) {
            for (double eps : distinct(privacy.epsilons())) {
              for (Algorithm algorithm : algorithmList) {
                for (int k : distinct(maxContributions)) {
                  if (k > 1 && !algorithm.online()) {
                    continue; // the batch baselines are event level
                  }
                  List<AccountantChoice> forThis = accountantsFor(algorithm, pValue, accountantList, k);
                  for (AccountantChoice accountant : forThis) {
                    for (RunSpec.PrivacyUnit unit : units(k)) {
                      runs.add(new RunSpec(algorithm, accountant, pValue, dValue, tValue, eps, deltaValue, seed, unit));
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
    return runs;
  }

  /**
   * The accountant choices that give distinct runs. Batch baselines have their own accounting, and
   * DP-POFW (p = 1) is always accounted as in the paper's Theorem 3.4 (the choice only concerns
   * DP-TOFW's tree noise): one run per seed, named {@code paper} for p = 1 so the output never claims
   * an accountant that was not used.
   */
  private static List<AccountantChoice> accountantsFor(Algorithm algorithm, double p, List<AccountantChoice> requested,
      int k) {
    if (!algorithm.online()) {
      return requested.subList(0, 1);
    }
    if (p == 1) {
      // the paper's report-noisy-min is event level only; a person-level DP-POFW is the exponential mechanism
      return List.of(k == 1 ? AccountantChoice.PAPER : AccountantChoice.ZCDP);
    }
    return requested;
  }

  /** The event level for k = 1; for k > 1, accounted for k, and the group-privacy baseline. */
  private static List<RunSpec.PrivacyUnit> units(int k) {
    return k == 1 ? List.of(RunSpec.PrivacyUnit.EVENT)
        : List.of(new RunSpec.PrivacyUnit("user", k), new RunSpec.PrivacyUnit("group", k));
  }

  /** {@code --noise discrete} is exact only under a zCDP tree: refuses it with the other accountants. */
  private NoiseChoice checkedNoise(List<AccountantChoice> accountantList) {
    if (noise == NoiseChoice.DISCRETE) {
      for (AccountantChoice accountant : accountantList) {
        require(accountant == AccountantChoice.AUTO || accountant == AccountantChoice.ZCDP,
            "--noise discrete needs --accountant auto or zcdp, got " + accountant.name().toLowerCase(Locale.ROOT));
      }
    }
    return noise;
  }

  private void validateNumbers() {
    for (int value : d) {
      require(value >= 1, "--d: the dimension must be >= 1, got " + value);
    }
    for (int value : maxContributions) {
      require(value >= 1, "--max-contributions: K must be >= 1, got " + value);
    }
    for (int value : horizon) {
      require(value >= 2, "--T: the stream length must be >= 2, got " + value);
    }
    require(seeds >= 1, "--seeds: need at least one seed, got " + seeds);
    privacy.check(spec);
    require(checkpoints >= 2, "--checkpoints: need at least 2, got " + checkpoints);
    require(testSize >= 1, "--test-size: need at least 1, got " + testSize);
  }

  private void require(boolean condition, String message) {
    OptionChecks.require(spec, condition, message);
  }

  private static <T> List<T> distinct(List<T> values) {
    return new ArrayList<>(new LinkedHashSet<>(values));
  }
}
