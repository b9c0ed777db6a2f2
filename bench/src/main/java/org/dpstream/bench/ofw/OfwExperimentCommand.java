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
    footer = {"", "Every option defaults to what the service does for a model that leaves it out (accountant auto, noise"
        + " discrete where it applies, adaptive clipping with the balanced threshold, learning rate 1).",
        "Example: ofw --p 1.5,inf --d 5 --T 10000 --seeds 10 --epsilon 1 --delta 1e-4 --algorithms ofw --out /tmp/ofw"})
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

  @Option(names = "--accountant", split = ",", paramLabel = "ACC", defaultValue = "auto",
      converter = AccountantConverter.class,
      description = "Noise and accounting of OFW: paper (tree, eq. 3.2), zcdp (tree), factorization (square-root"
          + " factorization, zCDP), blt (buffered linear Toeplitz, zCDP; exact with discrete noise), auto (the BLT or"
          + " the better tree, whichever predicts less error; the service's default). At p = 1 (DP-POFW) paper is"
          + " Laplace report-noisy-min and any other the exponential mechanism. Default: ${DEFAULT-VALUE}.")
  List<AccountantChoice> accountants;

  @Option(names = "--clip", paramLabel = "adaptive|worst-case|C", defaultValue = "adaptive",
      description = "DP-TOFW's increment clipping: adaptive (the whole increment clipped to a threshold chosen"
          + " privately online: balancing clipping bias against noise, or a quantile with --clip-quantile; zCDP"
          + " accountants only, --accountant paper and T < 4 run the worst case), worst-case (the paper's per-term"
          + " bounds) or a threshold C (the whole increment clipped to C in the noise's norm); p = 1 always uses the"
          + " worst case. Default: ${DEFAULT-VALUE}.")
  String clip;

  @Option(names = "--noise", paramLabel = "continuous|discrete", converter = NoiseConverter.class,
      description = "The noise sampler: discrete (exact discrete Gaussians on the lattice for DP-TOFW's tree, BLT"
          + " and histogram; the fixed-point exponential mechanism for DP-POFW; needs --accountant auto, zcdp or,"
          + " for p > 1, blt) or continuous (Ziggurat Gaussian, Gumbel or Laplace). Default: the service's, discrete"
          + " under auto and zcdp, continuous under the others.")
  NoiseChoice noise;

  @Option(names = "--clip-quantile", paramLabel = "Q",
      description = "With --clip adaptive: follow this quantile of the increments' norms, in (0, 1), instead of"
          + " the threshold that balances clipping bias against noise. Default: none (the balanced threshold).")
  Double clipQuantile;

  @Option(names = "--label-noise", paramLabel = "SD", defaultValue = "0.05",
      description = "Standard deviation of the synthetic labels' noise (the paper: 0.05); the declared label bound"
          + " is 1 + 5 SD. Default: ${DEFAULT-VALUE}.")
  double labelNoise;

  @Option(names = "--features", paramLabel = "gaussian|heavy", defaultValue = "gaussian",
      converter = FeaturesConverter.class,
      description = "Features: gaussian (the paper's, unit q-norm) or heavy (q-norm min(1, |T_3| / 5), Student's t"
          + " with 3 degrees of freedom). Default: ${DEFAULT-VALUE}.")
  RegressionDataset.Features features;

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
      if (clipQuantile != null && !(clipQuantile > 0 && clipQuantile < 1)) {
        throw new CommandLine.ParameterException(spec.commandLine(),
            "--clip-quantile must be in (0, 1), got " + clipQuantile);
      }
      return IncrementClipping.adaptive(clipQuantile != null ? clipQuantile : IncrementClipping.DEFAULT_QUANTILE,
          IncrementClipping.DEFAULT_QUANTILE_SHARE);
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

  /** {@code --features}: {@link RegressionDataset.Features#parse}. */
  static final class FeaturesConverter extends ParsingConverter<RegressionDataset.Features> {
    FeaturesConverter() {
      super(RegressionDataset.Features::parse);
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
    if (p.contains(1.0) && accountantList.stream().anyMatch(a -> a != AccountantChoice.PAPER && a != AccountantChoice.AUTO)) {
      stderr.println("note: p = 1 runs DP-POFW: accountant paper is its Laplace report-noisy-min, any other its"
          + " exponential mechanism; those runs are listed with accountant 'auto'.");
    }
    stderr.println("ofw: " + runs.size() + " runs into " + out.toAbsolutePath()
        + " (noise keys from the fixed experiment secret: reproducible, not for real data)");
    stderr.flush();

    ExperimentRunner runner = new ExperimentRunner(checkpoints, parseClip(), learningRate).withNoise(checkedNoise(accountantList));
    if (features != RegressionDataset.Features.GAUSSIAN || labelNoise != RegressionDataset.LABEL_NOISE_SD) {
      stderr.println("data: features " + features.name().toLowerCase(Locale.ROOT) + ", label noise " + labelNoise
          + " (not the paper's)");
    }
    ProgressBar progress = ProgressBar.forStream(stderr, runs.size());
    List<RunResult> results = new ArrayList<>();
    RegressionDataset data = null;
    long dataSeed = 0;
    for (RunSpec run : runs) {
      if (data == null || data.p() != run.p() || data.dimension() != run.d()
          || data.trainLabels().length != run.horizon() || dataSeed != run.seed()) {
        data = RegressionDataset.generate(run.p(), run.d(), run.horizon(), testSize, run.seed(), labelNoise, features);
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
   * The accountant choices that give distinct runs. Batch baselines have their own accounting. DP-POFW (p = 1)
   * has two vertex choices: Laplace report-noisy-min (paper) and the exponential mechanism (any other accountant,
   * listed as {@code auto}), so the output never claims an accountant that was not used.
   */
  private static List<AccountantChoice> accountantsFor(Algorithm algorithm, double p, List<AccountantChoice> requested,
      int k) {
    if (!algorithm.online()) {
      return requested.subList(0, 1);
    }
    if (p != 1) {
      return requested;
    }
    List<AccountantChoice> pofw = new ArrayList<>();
    if (k == 1 && requested.contains(AccountantChoice.PAPER)) {
      // the paper's report-noisy-min is event level only; a person-level DP-POFW is the exponential mechanism
      pofw.add(AccountantChoice.PAPER);
    }
    if (k > 1 || requested.stream().anyMatch(a -> a != AccountantChoice.PAPER)) {
      pofw.add(AccountantChoice.AUTO);
    }
    return pofw;
  }

  /** The event level for k = 1; for k > 1, accounted for k, and the group-privacy baseline. */
  private static List<RunSpec.PrivacyUnit> units(int k) {
    return k == 1 ? List.of(RunSpec.PrivacyUnit.EVENT)
        : List.of(new RunSpec.PrivacyUnit("user", k), new RunSpec.PrivacyUnit("group", k));
  }

  /**
   * {@code --noise discrete} is exact under the zCDP tree, the BLT (p &gt; 1) and DP-POFW's exponential mechanism:
   * refuses it with the other accountants.
   */
  private NoiseChoice checkedNoise(List<AccountantChoice> accountantList) {
    if (noise == NoiseChoice.DISCRETE) {
      for (AccountantChoice accountant : accountantList) {
        boolean exact = accountant == AccountantChoice.AUTO || accountant == AccountantChoice.ZCDP
            || (accountant == AccountantChoice.BLT && !p.contains(1.0));
        require(exact, "--noise discrete needs --accountant auto, zcdp or (p > 1) blt, got "
            + accountant.name().toLowerCase(Locale.ROOT));
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
    require(labelNoise >= 0 && Double.isFinite(labelNoise), "--label-noise: need a finite SD >= 0, got " + labelNoise);
  }

  private void require(boolean condition, String message) {
    OptionChecks.require(spec, condition, message);
  }

  private static <T> List<T> distinct(List<T> values) {
    return new ArrayList<>(new LinkedHashSet<>(values));
  }
}
