package org.dpstream.bench.erm;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dpstream.options.ErmOptionConverters;
import org.dpstream.options.FashionMnistDirectoryOption;
import org.dpstream.options.FeatureBoundsOption;
import org.dpstream.options.OptionChecks;
import org.dpstream.options.OutputDirectoryOption;
import org.dpstream.options.PrivacyGridOptions;
import org.dpstream.options.ProgressBar;
import org.dpstream.bench.common.ExperimentKeys;
import org.dpstream.bench.common.Formats;
import org.dpstream.bench.common.Stats;
import org.dpstream.core.data.CsvReader;
import org.dpstream.core.data.DataSplits;
import org.dpstream.core.data.FashionMnist;
import org.dpstream.core.data.FashionMnistBinary;
import org.dpstream.core.data.LabelledData;
import org.dpstream.core.data.MalformedDataException;
import org.dpstream.core.data.MissingDatasetException;
import org.dpstream.core.erm.training.ErmSettings;
import org.dpstream.core.erm.training.ErmTrainer;
import org.dpstream.core.erm.training.Evaluation;
import org.dpstream.core.erm.training.TrainDefaults;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code dpstream-bench erm}: DP-CD, DP-SkGD and DP-SGD on the synthetic data of Mangold et al. (2022)
 * section 5 or on Fashion-MNIST, relative error against a non-private optimum.
 */
@Command(
    name = "erm",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Private ERM (Mangold et al. 2022 section 5; Maranjyan et al. DP-SkGD): relative error"
          + " (F(w) - F*) / (F(0) - F*) against a non-private optimum F* computed by the harness, and held-out accuracy.",
      "Writes DIR/results.csv (one row per algorithm, epsilon and seed), DIR/trajectories.csv (relative error after"
          + " every pass), DIR/tuning.csv, DIR/relative_error.png and DIR/summary.txt.",
      "Hyper-parameters: every combination of --clip-fractions and --step-scales is run and, per algorithm and"
          + " epsilon, the one with the lowest mean final training objective over the seeds is reported, as in the"
          + " paper (whose privacy cost of tuning is not counted either).",
      "Synthetic data: n x p standard Gaussian features truncated to [-3, 3], column j scaled by sqrt(s_j) (balanced:"
          + " s_j = 1; unbalanced: s_j lognormal, exp(N(0, 1))), public bounds b_j = 3 sqrt(s_j), w_true ~ N(0, I);"
          + " logistic labels sign(x'w_true) flipped with probability 0.2, squared labels x'w_true + N(0, 0.01).",
      "csv:FILE: train's defaults (no tuning) on a user's table over --splits random splits, every algorithm against"
          + " output and objective perturbation (Chaudhuri et al. 2011) and the non-private optimum; DIR/results.csv and"
          + " DIR/summary.txt (held-out accuracy, mean and std over the splits).",
      "Noise keys come from a fixed, public experiment secret (reproducible; never for real data)."
    },
    footer = {"", "Example: erm --data synthetic-unbalanced --loss logistic --reg l2"
        + " --algorithms dpcd-smooth,dpcd-uniform,dpsgd --epsilon 1 --seeds 5 --out /tmp/erm",
        "         erm --data csv:breast_cancer.csv --feature-bound breast_cancer.bounds --intercept"
        + " --epsilon 0.5,1,3,10 --splits 10 --out /tmp/erm-bc"})
public final class ErmExperimentCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--data", paramLabel = "DATA", defaultValue = "synthetic-unbalanced",
      description = "synthetic-balanced, synthetic-unbalanced, fashion-mnist, or csv:FILE (a CSV with a header and"
          + " 0/1 labels in the column 'label': train's defaults over --splits random splits against the baselines"
          + " output-perturbation and objective-perturbation; needs --feature-bound). Default: ${DEFAULT-VALUE}.")
  String data;

  @Option(names = "--feature-bound", paramLabel = "B|FILE",
      description = "csv: PUBLIC bound(s) |x_j| <= b_j, one number or a file of one per feature (as train's).")
  String featureBound;

  @Option(names = "--splits", paramLabel = "N", defaultValue = "10",
      description = "csv: random train/held-out splits (split seeds 1..N; the noise key follows the split). Default: ${DEFAULT-VALUE}.")
  int splits;

  @Option(names = "--test-fraction", paramLabel = "F", defaultValue = "0.2",
      description = "csv: held-out fraction of each split. Default: ${DEFAULT-VALUE}.")
  double testFraction;

  @Option(names = "--intercept", description = "csv: append a constant feature 1 (bound 1), as train --intercept.")
  boolean intercept;

  @Option(names = "--baseline-lambdas", split = ",", paramLabel = "L", defaultValue = "0.001,0.003,0.01,0.03,0.1,0.3,1",
      description = "csv: the l2 weights tried for output and objective perturbation (the best mean held-out accuracy"
          + " is reported: tuning the baselines get for free). Default: ${DEFAULT-VALUE}.")
  List<Double> baselineLambdas;

  @Option(names = "--clip-quantile", paramLabel = "Q",
      description = "csv: DP-SGD's target quantile of the gradient norms for adaptive clipping, in (0, 1), instead of"
          + " train's default (" + TrainDefaults.CLIP_QUANTILE + "); for choosing that default on selection data.")
  Double clipQuantile;

  @Option(names = "--loss", paramLabel = "LOSS", defaultValue = "logistic",
      converter = ErmOptionConverters.LossConverter.class,
      description = "logistic or squared. Default: ${DEFAULT-VALUE}.")
  ErmSettings.Loss loss;

  @Option(names = "--reg", paramLabel = "REG", defaultValue = "l2", converter = ErmOptionConverters.RegConverter.class,
      description = "none, l2 or l1. Default: ${DEFAULT-VALUE}.")
  ErmSettings.Reg reg;

  @Option(names = "--lambda", paramLabel = "L",
      description = "Regulariser weight. Default: l2: 2/n (the paper's lambda||w||^2 with lambda = 1/n, i.e. the core's"
          + " (lambda/2)||w||^2 with 2/n); l1: 0.1 lambda_max, lambda_max = ||X'(y - y0)||_inf / n computed by the harness"
          + " (the paper's values exist only in its figure).")
  Double lambda;

  @Option(names = "--algorithms", split = ",", paramLabel = "ALG",
      defaultValue = "dpcd-smooth,dpcd-uniform,dpskgd-importance,dpskgd-uniform,dpsgd",
      description = "Any of dpcd-smooth, dpcd-uniform, dpskgd-importance, dpskgd-uniform, dpsgd. Default: all.")
  List<String> algorithms;

  // --epsilon(s) (DP-CD / DP-SkGD: the papers' accountant needs <= 1), --delta (default 1/n^2, as in the paper)
  @Mixin PrivacyGridOptions privacy;

  @Option(names = "--seeds", paramLabel = "N", defaultValue = "5",
      description = "Seeds 1..N of the noise (the data set is fixed by --data-seed). Default: ${DEFAULT-VALUE}.")
  int seeds;

  @Option(names = "--passes", paramLabel = "N", defaultValue = "30", description = "Passes per run. Default: ${DEFAULT-VALUE}.")
  int passes;

  @Option(names = "--n", paramLabel = "N",
      description = "Training records. Default: 10000 (synthetic) or every image of the two classes (fashion-mnist).")
  Integer n;

  @Option(names = "--p", paramLabel = "P", defaultValue = "100", description = "Synthetic: features. Default: ${DEFAULT-VALUE}.")
  int p;

  @Option(names = "--test-size", paramLabel = "N", defaultValue = "2000",
      description = "Synthetic: held-out records. Default: ${DEFAULT-VALUE} (fashion-mnist: the official test split).")
  int testSize;

  @Option(names = "--data-seed", paramLabel = "SEED", defaultValue = "1", description = "Seed of the synthetic data. Default: ${DEFAULT-VALUE}.")
  long dataSeed;

  @Option(names = "--clip-fractions", split = ",", paramLabel = "F", defaultValue = "1,0.3,0.1,0.03",
      description = "Clipping thresholds C = F ||b||_2 to try (public: b are the declared bounds). Default: ${DEFAULT-VALUE}.")
  List<Double> clipFractions;

  @Option(names = "--step-scales", split = ",", paramLabel = "S", defaultValue = "1,3,10,30",
      description = "Step multipliers s to try (s/M_j, s/beta). Default: ${DEFAULT-VALUE}.")
  List<Double> stepScales;

  @Mixin FashionMnistDirectoryOption dataDir;

  @Option(names = "--classes", paramLabel = "A,B", defaultValue = "7,9",
      description = "fashion-mnist: the two classes (0 = A, 1 = B). Default: ${DEFAULT-VALUE}.")
  String classes;

  @Mixin OutputDirectoryOption output;

  private record Prepared(LabelledData train, LabelledData test, double[] bounds) {}

  @Override
  public Integer call() throws IOException {
    ErmSettings.Loss lossValue = loss;
    ErmSettings.Reg regValue = reg;
    require(regValue != ErmSettings.Reg.ELASTIC_NET, "--reg: expected none, l2 or l1");
    if (data.strip().startsWith("csv:")) {
      return callOnFile(Path.of(data.strip().substring("csv:".length())));
    }
    String dataName = data.strip().toLowerCase(Locale.ROOT);
    require(List.of("synthetic-balanced", "synthetic-unbalanced", "fashion-mnist").contains(dataName),
        "--data: expected synthetic-balanced, synthetic-unbalanced or fashion-mnist, got '" + data + "'");
    List<String> algorithmList = new ArrayList<>();
    for (String name : algorithms) {
      String a = name.strip().toLowerCase(Locale.ROOT);
      parse(() -> {
        ErmTrainer.requireAlgorithm(a);
        return null;
      }, "--algorithms");
      if (!algorithmList.contains(a)) {
        algorithmList.add(a);
      }
    }
    validateNumbers(dataName);
    boolean closedForm = algorithmList.stream().anyMatch(a -> !a.equals("dpsgd"));
    for (double e : privacy.epsilons()) {
      require(!closedForm || e <= 1, "--epsilon: " + dataName + " reproduces the papers' closed-form accountant, proved"
          + " for epsilon <= 1 only (got " + e + "); --data csv:FILE uses the tight one, valid for any epsilon");
    }
    PrintWriter stdout = spec.commandLine().getOut();
    PrintWriter stderr = spec.commandLine().getErr();

    Prepared prepared;
    try {
      prepared = prepare(dataName, lossValue);
    } catch (MissingDatasetException e) {
      stderr.println("erm: " + e.getMessage());
      return 1;
    }
    int size = prepared.train().size();
    double deltaValue = privacy.delta() != null ? privacy.delta() : 1.0 / ((double) size * size);
    double lambdaValue = lambda != null ? lambda : defaultLambda(regValue, prepared.train(), lossValue);
    double boundNorm = Math.sqrt(Arrays.stream(prepared.bounds()).map(b -> b * b).sum());
    ErmSettings base = new ErmSettings(algorithmList.get(0), lossValue, regValue, lambdaValue, 0.5, privacy.epsilons().get(0),
        deltaValue, passes, boundNorm, lossValue == ErmSettings.Loss.SQUARED ? 1.0 : Double.NaN, 1.0);

    Path out = output.create();
    ErmCore core = ErmCore.prepare(prepared.train(), prepared.bounds(), base);
    long solverStart = System.nanoTime();
    double optimum = core.optimum();
    double start = core.objective(new double[prepared.bounds().length]);
    List<Double> epsilons = distinct(privacy.epsilons());
    List<Double> clips = distinct(clipFractions);
    List<Double> steps = distinct(stepScales);
    int total = algorithmList.size() * epsilons.size() * clips.size() * steps.size() * seeds;
    stderr.printf(Locale.ROOT, "erm: %s, n = %d, d = %d, %s loss, %s (lambda %s), delta %s; F* = %.8g (non-private solver,"
            + " %.1f s), F(0) = %.8g; %d runs into %s (noise keys from the fixed experiment secret: reproducible, not"
            + " for real data)%n", dataName, size, prepared.bounds().length, lossValue.cliName(), regValue.cliName(),
        Formats.brief(lambdaValue), Formats.brief(deltaValue), optimum, (System.nanoTime() - solverStart) / 1e9, start,
        total, out.toAbsolutePath());
    stderr.flush();

    ProgressBar progress = ProgressBar.forStream(stderr, total);
    List<ErmRunResult> chosen = new ArrayList<>();
    List<String> tuning = new ArrayList<>();
    tuning.add("algorithm,epsilon,clip_fraction,clip,step_scale,mean_final_objective,mean_relative_error,chosen");
    for (String algorithm : algorithmList) {
      for (double eps : epsilons) {
        Map<String, List<ErmRunResult>> byCombination = new LinkedHashMap<>();
        List<String> tuningRows = new ArrayList<>();
        String best = null;
        double bestObjective = Double.POSITIVE_INFINITY;
        for (double fraction : clips) {
          for (double step : steps) {
            ErmSettings settings = new ErmSettings(algorithm, lossValue, regValue, lambdaValue, 0.5, eps, deltaValue,
                passes, fraction * boundNorm, base.residualClip(), step);
            List<ErmRunResult> runs = new ArrayList<>();
            for (long seed = 1; seed <= seeds; seed++) {
              runs.add(runOne(core, settings, dataName, seed, optimum, start, prepared.test()));
              progress.advance(algorithm + " eps=" + Formats.parameter(eps) + " C=" + Formats.brief(fraction)
                  + "|b| s=" + Formats.parameter(step) + " seed " + seed);
            }
            double meanObjective = Stats.mean(runs.stream().mapToDouble(r -> finite(r.finalObjective())).toArray());
            String key = fraction + "/" + step;
            byCombination.put(key, runs);
            tuningRows.add(String.join(",", algorithm, Formats.parameter(eps), Formats.parameter(fraction),
                Formats.measurement(fraction * boundNorm), Formats.parameter(step), Formats.measurement(meanObjective),
                Formats.measurement(Stats.mean(runs.stream().mapToDouble(ErmRunResult::relativeError).toArray()))));
            if (best == null || meanObjective < bestObjective) {
              best = key;
              bestObjective = meanObjective;
            }
          }
        }
        int k = 0;
        for (String key : byCombination.keySet()) {
          tuning.add(tuningRows.get(k++) + "," + key.equals(best));
        }
        chosen.addAll(byCombination.get(best));
      }
    }

    Path csv = ErmOutputs.writeResults(out, chosen);
    Path trajectories = ErmOutputs.writeTrajectories(out, chosen);
    Path tuningCsv = out.resolve("tuning.csv");
    Files.write(tuningCsv, tuning);
    boolean severalEpsilons = epsilons.size() > 1;
    String title = dataName + ", " + lossValue.cliName() + " + " + regValue.cliName()
        + (severalEpsilons ? "" : ", eps = " + Formats.parameter(epsilons.get(0))) + ", delta = " + Formats.brief(deltaValue);
    Path png = ErmOutputs.writePlot(out, title, chosen, severalEpsilons);
    String summary = "erm: " + title + ", n = " + size + ", d = " + prepared.bounds().length + ", " + passes
        + " passes, F* = " + Formats.brief(optimum) + "\n" + ErmOutputs.summary(chosen, severalEpsilons)
        + "rel.err = (F(w) - F*) / (F(0) - F*) after the last pass (std over seeds, n - 1); test acc = held-out accuracy"
        + (lossValue == ErmSettings.Loss.SQUARED ? " (NaN: regression labels)" : "")
        + "; C = chosen clipping threshold, step = chosen step scale (lowest mean training objective).\n";
    Files.writeString(out.resolve("summary.txt"), summary);
    stdout.println();
    stdout.print(summary);
    stdout.println("wrote " + csv + ", " + trajectories + ", " + tuningCsv + ", " + png + " and " + out.resolve("summary.txt"));
    stdout.flush();
    return 0;
  }

  /** {@code --data csv:FILE}: see {@link ErmFileExperiment}. */
  private Integer callOnFile(Path file) throws IOException {
    require(Files.isRegularFile(file), "--data: no such file: " + file);
    require(featureBound != null, "--feature-bound is required with --data csv:FILE (PUBLIC bounds, never measured"
        + " on the data)");
    require(splits >= 1, "--splits: need at least one split, got " + splits);
    require(testFraction > 0 && testFraction < 1, "--test-fraction: must be in (0, 1), got " + testFraction);
    privacy.check(spec);
    for (double l : baselineLambdas) {
      require(l > 0 && Double.isFinite(l), "--baseline-lambdas: must be positive, got " + l);
    }
    require(clipQuantile == null || (clipQuantile > 0 && clipQuantile < 1),
        "--clip-quantile: must be in (0, 1), got " + clipQuantile);
    List<String> algorithmList = new ArrayList<>();
    for (String name : algorithms) {
      String a = name.strip().toLowerCase(Locale.ROOT);
      parse(() -> {
        ErmTrainer.requireAlgorithm(a);
        return null;
      }, "--algorithms");
      if (!algorithmList.contains(a)) {
        algorithmList.add(a);
      }
    }
    for (String baseline : List.of("output-perturbation", "objective-perturbation")) {
      if (!algorithmList.contains(baseline)) {
        algorithmList.add(baseline);
      }
    }
    PrintWriter stdout = spec.commandLine().getOut();
    PrintWriter stderr = spec.commandLine().getErr();
    LabelledData all;
    double[] bounds;
    try {
      all = CsvReader.read(file, CsvReader.Options.defaults());
      bounds = FeatureBoundsOption.resolve(featureBound, all.dimension());
    } catch (MalformedDataException | IllegalArgumentException e) {
      stderr.println("erm: " + e.getMessage());
      return 1;
    }
    double[] labels = all.distinctLabels();
    require(labels.length == 2 && labels[0] == 0 && labels[1] == 1,
        "--data: " + file + " needs labels 0/1 in its label column, found " + Arrays.toString(labels));
    for (int i = 0; i < all.size(); i++) {
      for (int j = 0; j < bounds.length; j++) {
        require(Math.abs(all.feature(i, j)) <= bounds[j], "--feature-bound: record " + (i + 1) + ", feature " + (j + 1)
            + " = " + all.feature(i, j) + " is outside the declared bound " + bounds[j]);
      }
    }
    if (intercept) {
      double[][] x = all.features();
      for (int i = 0; i < x.length; i++) {
        x[i] = Arrays.copyOf(x[i], x[i].length + 1);
        x[i][x[i].length - 1] = 1;
      }
      all = LabelledData.of(x, all.labels());
      bounds = Arrays.copyOf(bounds, bounds.length + 1);
      bounds[bounds.length - 1] = 1;
    }
    String fileName = file.getFileName().toString();
    String name = fileName.contains(".") ? fileName.substring(0, fileName.lastIndexOf('.')) : fileName;
    double quantile = clipQuantile != null ? clipQuantile : TrainDefaults.CLIP_QUANTILE;
    stderr.printf(Locale.ROOT, "erm: %s, %d records, d = %d, %d splits, held-out %s; train's defaults, DP-SGD clip"
        + " quantile %s (noise keys from the fixed experiment secret: reproducible, not for real data)%n", name,
        all.size(), bounds.length, splits, testFraction, quantile);
    String summary = ErmFileExperiment.run(name, all, bounds, algorithmList, distinct(privacy.epsilons()), splits, testFraction,
        distinct(baselineLambdas), quantile, output.path(), stderr);
    stdout.println();
    stdout.print(summary);
    stdout.println("held-out accuracy, mean ± std over " + splits + " splits; wrote "
        + output.path().resolve("results.csv") + " and " + output.path().resolve("summary.txt"));
    stdout.flush();
    return 0;
  }

  private ErmRunResult runOne(ErmCore core, ErmSettings settings, String dataName, long seed, double optimum,
      double start, LabelledData test) {
    String runId = String.join("/", "erm", dataName, settings.loss().cliName(), settings.reg().cliName(),
        settings.algorithm(), Formats.parameter(settings.epsilon()), Formats.measurement(settings.clip()),
        Formats.parameter(settings.stepScale()));
    long started = System.nanoTime();
    ErmCore.Run run = core.run(settings, ExperimentKeys.forSeed(seed), runId);
    double seconds = (System.nanoTime() - started) / 1e9;
    List<double[]> weights = run.passWeights();
    double[] relative = new double[weights.size()];
    double last = Double.NaN;
    for (int t = 0; t < relative.length; t++) {
      last = core.objective(weights.get(t));
      relative[t] = (last - optimum) / (start - optimum);
    }
    double[] finalWeights = weights.get(weights.size() - 1);
    double accuracy = Evaluation.of(test, finalWeights, settings.loss()).accuracy();
    return new ErmRunResult(settings.algorithm(), dataName, settings.loss().cliName(), settings.reg().cliName(),
        settings.epsilon(), settings.delta(), seed, weights.size() - 1, settings.clip(), settings.stepScale(), relative,
        last, accuracy, seconds, run.description());
  }

  private Prepared prepare(String dataName, ErmSettings.Loss lossValue) throws IOException {
    if (dataName.equals("fashion-mnist")) {
      int[] pair = parse(() -> FashionMnistBinary.parseClassPair(classes), "--classes");
      LabelledData train = FashionMnistBinary.load(dataDir.path(), FashionMnist.Split.TRAIN, pair[0], pair[1]);
      LabelledData test = FashionMnistBinary.load(dataDir.path(), FashionMnist.Split.TEST, pair[0], pair[1]);
      if (n != null && n < train.size()) {
        int[] order = DataSplits.shuffledIndices(train.size(), dataSeed);
        train = train.select(Arrays.copyOf(order, n));
      }
      double[] bounds = new double[train.dimension()];
      Arrays.fill(bounds, FashionMnistBinary.FEATURE_BOUND);
      return new Prepared(train, test, bounds);
    }
    SyntheticErmData.Generated generated = SyntheticErmData.generate(dataName.equals("synthetic-unbalanced"), lossValue,
        n != null ? n : 10_000, p, testSize, dataSeed);
    return new Prepared(generated.train(), generated.test(), generated.bounds());
  }

  /** See --lambda. */
  static double defaultLambda(ErmSettings.Reg reg, LabelledData train, ErmSettings.Loss loss) {
    int size = train.size();
    return switch (reg) {
      case NONE -> 0;
      case L2, ELASTIC_NET -> 2.0 / size;
      case L1 -> {
        double center = loss == ErmSettings.Loss.LOGISTIC ? 0.5 : 0;
        double largest = 0;
        for (int j = 0; j < train.dimension(); j++) {
          double sum = 0;
          for (int i = 0; i < size; i++) {
            sum += train.feature(i, j) * (train.label(i) - center);
          }
          largest = Math.max(largest, Math.abs(sum) / size);
        }
        yield 0.1 * largest;
      }
    };
  }

  private void validateNumbers(String dataName) {
    require(seeds >= 1, "--seeds: need at least one seed, got " + seeds);
    require(passes >= 1, "--passes: need at least one pass, got " + passes);
    privacy.check(spec);
    require(lambda == null || (lambda >= 0 && Double.isFinite(lambda)), "--lambda: must be finite and >= 0, got " + lambda);
    require(n == null || n >= 2, "--n: need at least 2 records, got " + n);
    require(p >= 1, "--p: need at least one feature, got " + p);
    require(testSize >= 1, "--test-size: need at least 1, got " + testSize);
    for (double f : clipFractions) {
      require(f > 0 && Double.isFinite(f), "--clip-fractions: must be positive, got " + f);
    }
    for (double s : stepScales) {
      require(s > 0 && Double.isFinite(s), "--step-scales: must be positive, got " + s);
    }
  }

  private void require(boolean condition, String message) {
    OptionChecks.require(spec, condition, message);
  }

  private <T> T parse(java.util.function.Supplier<T> parser, String option) {
    return OptionChecks.parse(spec, parser, option);
  }

  private static double finite(double v) {
    return Double.isFinite(v) ? v : Double.MAX_VALUE;
  }

  private static <T> List<T> distinct(List<T> values) {
    return new ArrayList<>(new LinkedHashSet<>(values));
  }
}
