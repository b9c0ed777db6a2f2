package org.dpstream.cli.train;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import org.dpstream.core.data.CsvReader;
import org.dpstream.core.data.DataFormat;
import org.dpstream.core.data.DataSplits;
import org.dpstream.core.data.FashionMnist;
import org.dpstream.core.data.FashionMnistBinary;
import org.dpstream.core.data.LabelledData;
import org.dpstream.core.data.LibSvmReader;
import org.dpstream.core.data.MalformedDataException;
import org.dpstream.core.data.MissingDatasetException;
import org.dpstream.core.erm.ContributionBounding;
import org.dpstream.core.erm.ErmDataset;
import org.dpstream.core.erm.training.ErmSettings;
import org.dpstream.core.erm.training.ErmTrainer;
import org.dpstream.core.erm.training.Evaluation;
import org.dpstream.core.erm.training.TrainDefaults;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKey;
import org.dpstream.options.ErmOptionConverters;
import org.dpstream.options.FashionMnistDirectoryOption;
import org.dpstream.options.FeatureBoundsOption;
import org.dpstream.options.OptionChecks;
import org.dpstream.options.ParsingConverter;
import org.dpstream.options.PrivacyOptions;
import org.dpstream.options.ProgressBar;
import org.dpstream.schemas.ModelRelease;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code dpstream train}: one private ERM model from a file, written as a ModelRelease and optionally
 * published. Only the released model is covered by the privacy guarantee; the objective and accuracy the
 * command prints are computed from the data, for the data owner's eyes.
 */
@Command(
    name = "train",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Train a differentially private linear model (ERM) on a CSV or LibSVM file, or on Fashion-MNIST.",
      "Holds out --test-fraction of the records, trains on the rest with the chosen algorithm, loss, regulariser"
          + " and (epsilon, delta), prints the objective F(w) = f(w) + psi(w) and the held-out accuracy, and writes"
          + " the model as a ModelRelease (JSON or Avro) to --out; --publish also sends it to dp.releases.",
      "",
      "Feature bounds are PUBLIC: every step size, clipping threshold and sampling probability is derived from"
          + " the declared bounds |x_j| <= b_j (--feature-bound), never from the private data. Declare them from a"
          + " schema, a normalisation contract or domain knowledge; bounds measured on the data (its max |x_ij|)"
          + " would leak it and void the guarantee. Records outside the bounds are an error unless"
          + " --clamp-to-bounds. For Fashion-MNIST the bound is 1 for every pixel (bytes 0..255 divided by 255).",
      "Training runs on the features divided by their bounds (a public map), so that steps and clipping suit every"
          + " feature; the released weights are in the file's original units (the intercept's bound is 1). The"
          + " regulariser acts on the scaled weights.",
      "Next to the private model the command prints, NOT PRIVATE and for the data owner only, what the same algorithm"
          + " reaches without noise on the same split and the accuracy of always predicting the majority class.",
      "",
      "Release fields: modelId, step = number of training records n (each used in every pass), epoch = 0,"
          + " parameters = the weights (the intercept last with --intercept), algorithm = the run's description,"
          + " p = 2 (unconstrained Euclidean weights; the field is the lp geometry of the online models),"
          + " ledger = budget (epsilon, delta), accountant, horizon = n, spent (epsilon, delta).",
      "Noise key: DPSTREAM_NOISE_KEY or DPSTREAM_NOISE_KEY_FILE if set (reproducible noise), else a random"
          + " one-off key held only in memory.",
      "Per person (--user-column COL --max-contributions K, CSV only): every record must name its person (a record"
          + " without one stops the command, counting them); of each person's training records at most K are kept,"
          + " those of smallest keyed hash of (person, record content) under the noise key (a public rule that sees"
          + " only that person's records; with the random one-off key another run keeps other records), and the"
          + " guarantee holds for data sets that differ in all of one person's records (docs/privacy-layer.md)."
          + " The release's algorithm and ledger name the unit and K; no id reaches any output.",
      "Printed objective and accuracies are NOT private: they are computed from the data."
    },
    footer = {"", "Example: train --data data.csv --label-column label --feature-bound 1 --loss logistic --reg l2"
        + " --algorithm dpcd-smooth --epsilon 1 --out model.json",
        "         train --data fashion-mnist --classes 7,9 --algorithm dpcd-smooth --out fmnist.json"})
public final class TrainCommand implements Callable<Integer> {

  static final String FASHION_MNIST = "fashion-mnist";

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--data", required = true, paramLabel = "FILE|fashion-mnist",
      description = "Training data: a CSV or LibSVM file, or 'fashion-mnist' (Debian package dataset-fashion-mnist).")
  String data;

  @Option(names = "--format", paramLabel = "FMT", defaultValue = "auto",
      description = "csv, libsvm or auto (by extension: .csv/.tsv, .libsvm/.svm/.svmlight). Default: ${DEFAULT-VALUE}.")
  String format;

  @Option(names = "--label-column", paramLabel = "COL",
      description = "CSV: the label column, by header name, 0-based index, 'first' or 'last'."
          + " Default: the column named label/y/target/class, else the first.")
  String labelColumn;

  @Option(names = "--no-header", description = "CSV: the first line is data, not column names.")
  boolean noHeader;

  @Option(names = "--delimiter", paramLabel = "CHAR", description = "CSV field delimiter: ',' ';' 'tab'. Default: ',' (tab for .tsv).")
  String delimiter;

  @Option(names = "--dimension", paramLabel = "D", description = "LibSVM: number of features (default: the largest index).")
  Integer dimension;

  @Option(names = "--feature-bound", paramLabel = "B|FILE",
      description = "PUBLIC bound(s) |x_j| <= b_j: one number for every feature, or a file of one bound per feature."
          + " Required for files; fixed at 1 for fashion-mnist. Never compute it from the private data.")
  String featureBound;

  @Option(names = "--clamp-to-bounds", description = "Clamp features outside the declared bounds instead of failing.")
  boolean clamp;

  @Option(names = "--user-column", paramLabel = "COL",
      description = "CSV: the column naming each record's person (header name or 0-based index); the guarantee is"
          + " then per person. Needs --max-contributions.")
  String userColumn;

  @Option(names = "--max-contributions", paramLabel = "K",
      description = "With --user-column: the most training records kept per person (a keyed hash of each record"
          + " chooses which); the privacy accounting covers all K records of one person.")
  Integer maxContributions;

  @Option(names = "--intercept", description = "Add a constant feature 1 (bound 1); its weight is the last parameter.")
  boolean intercept;

  @Mixin FashionMnistDirectoryOption dataDir;

  @Option(names = "--classes", paramLabel = "A,B", defaultValue = "7,9",
      description = "fashion-mnist: the two classes (label 0 = A, 1 = B). Default: ${DEFAULT-VALUE} (sneaker vs ankle boot).")
  String classes;

  @Option(names = "--algorithm", paramLabel = "ALG", defaultValue = "dpsgd",
      description = "dpcd-smooth, dpcd-uniform, dpskgd-importance, dpskgd-uniform, dpsgd, or the baselines"
          + " output-perturbation and objective-perturbation (Chaudhuri et al. 2011; logistic loss with l2 only)."
          + " Default: ${DEFAULT-VALUE} (with adaptive clipping: the only algorithm whose clip follows the data).")
  String algorithm;

  @Option(names = "--loss", paramLabel = "LOSS", defaultValue = "logistic",
      converter = ErmOptionConverters.LossConverter.class,
      description = "logistic (labels 0/1 or -1/+1) or squared. Default: ${DEFAULT-VALUE}.")
  ErmSettings.Loss loss;

  @Option(names = "--reg", paramLabel = "REG", defaultValue = "l2",
      converter = ErmOptionConverters.RegConverter.class,
      description = "none, l2 ((lambda/2)||w||^2), l1 (lambda||w||_1) or elastic-net. Default: ${DEFAULT-VALUE}.")
  ErmSettings.Reg reg;

  @Option(names = "--lambda", paramLabel = "L", description = "Regulariser weight >= 0. Default: 1/n (n = training records).")
  Double lambda;

  @Option(names = "--l1-ratio", paramLabel = "A", defaultValue = "0.5",
      description = "elastic-net: weight a of the l1 part, in [0, 1]. Default: ${DEFAULT-VALUE}.")
  double l1Ratio;

  @Mixin PrivacyOptions privacy; // --epsilon (any; with --accountant paper: <= 1), --delta (default 1/n^2)

  @Option(names = "--passes", paramLabel = "N", defaultValue = "30",
      description = "Passes over the data (one pass = the work of one full gradient). Default: ${DEFAULT-VALUE}.")
  int passes;

  @Option(names = "--accountant", paramLabel = "RULE", defaultValue = "tight", converter = AccountantConverter.class,
      description = "How (epsilon, delta) becomes the noise of DP-CD, DP-SkGD and output perturbation: tight (zCDP with"
          + " the conversion of Canonne, Kamath and Steinke 2020, any epsilon) or paper (the papers' closed form,"
          + " proved for epsilon <= 1 only; more noise). DP-SGD has its own RDP accountant. Default: ${DEFAULT-VALUE}.")
  ErmSettings.Accountant accountant;

  @Option(names = "--clip", paramLabel = "C",
      description = "Clipping threshold C in the scaled units (every feature divided by its bound; DP-CD: per-coordinate"
          + " C_j by the algorithm's rule; DP-SGD: a FIXED per-sample l2 clip, which turns adaptive clipping off)."
          + " Default: sqrt(d) = ||b||_2 of the scaled bounds (no clipping bias for the logistic loss); DP-SGD starts"
          + " there and adapts the clip privately to the " + TrainDefaults.CLIP_QUANTILE + " quantile of the gradient norms"
          + " (Andrew et al. 2021).")
  Double clip;

  @Option(names = "--batch-size", paramLabel = "M",
      description = "DP-SGD: expected Poisson batch size q n. Default: max(10, sqrt(n)).")
  Double batchSize;

  @Option(names = "--residual-clip", paramLabel = "R",
      description = "DP-SkGD: clip of the per-sample residual. Default: the loss's bound (logistic: 1); squared: 1.")
  Double residualClip;

  @Option(names = "--step-scale", paramLabel = "S", defaultValue = "1",
      description = "Step multiplier s: steps s/M_j (coordinate methods), s/beta (DP-SGD), with M_j = k and beta = k d"
          + " the smoothness bounds of the scaled features (k = 1/4 logistic, 1 squared). Default: ${DEFAULT-VALUE}.")
  double stepScale;

  @Option(names = "--test-fraction", paramLabel = "F", defaultValue = "0.2",
      description = "Fraction of the records held out for evaluation, in [0, 1). Default: ${DEFAULT-VALUE}"
          + " (fashion-mnist: the official test split instead).")
  double testFraction;

  @Option(names = "--split-seed", paramLabel = "SEED", defaultValue = "1",
      description = "Seed of the train/test shuffle (not of the privacy noise). Default: ${DEFAULT-VALUE}.")
  long splitSeed;

  @Option(names = "--model-id", paramLabel = "ID", description = "The release's modelId. Default: the data file's name without extension.")
  String modelId;

  @Option(names = "--out", required = true, paramLabel = "FILE", description = "Where to write the ModelRelease.")
  Path out;

  @Option(names = "--output-format", paramLabel = "FMT", defaultValue = "auto",
      description = "json, avro (single-object encoding) or auto (avro for .avro, else json). Default: ${DEFAULT-VALUE}.")
  String outputFormat;

  @Option(names = "--publish", description = "Also send the release to --topic (needs --bootstrap-servers).")
  boolean publish;

  @Option(names = "--bootstrap-servers", paramLabel = "HOSTS", description = "Kafka bootstrap servers for --publish.")
  String bootstrapServers;

  @Option(names = "--topic", paramLabel = "TOPIC", defaultValue = "dp.releases", description = "Default: ${DEFAULT-VALUE}.")
  String topic;

  @Option(names = "--producer-property", paramLabel = "KEY=VALUE",
      description = "Extra Kafka producer setting (repeatable), e.g. security.protocol=SASL_SSL.")
  Map<String, String> producerProperties = new LinkedHashMap<>();

  /**
   * The data after loading: training and held-out records, public bounds, a name, and with --user-column what the
   * bound kept (else null).
   */
  record Prepared(LabelledData train, LabelledData test, double[] bounds, String name,
      ContributionBounding.Kept bound) {}

  @Override
  public Integer call() throws IOException {
    ErmSettings.Loss lossValue = loss;
    ErmSettings.Reg regValue = reg;
    parse(() -> {
      ErmTrainer.requireAlgorithm(algorithm.strip());
      return null;
    }, "--algorithm");
    ReleaseOutput.Encoding encoding = encoding();
    validateNumbers();
    PrintWriter stdout = spec.commandLine().getOut();
    PrintWriter stderr = spec.commandLine().getErr();
    KeyedNoiseSource source = noiseSource(stderr);

    Prepared prepared;
    try {
      prepared = prepare(lossValue, source);
    } catch (MalformedDataException | MissingDatasetException e) {
      stderr.println("train: " + e.getMessage());
      return 1;
    } catch (IllegalArgumentException e) {
      stderr.println("train: " + e.getMessage());
      return 1;
    }
    int n = prepared.train().size();
    String algorithmName = algorithm.strip().toLowerCase(Locale.ROOT);
    ErmSettings settings = new ErmSettings(algorithmName, lossValue, regValue,
        lambda != null ? lambda : TrainDefaults.lambda(n), l1Ratio, privacy.epsilon(), privacy.delta(TrainDefaults.delta(n)), passes,
        clip != null ? clip : Double.NaN,
        residualClip != null ? residualClip : (lossValue == ErmSettings.Loss.SQUARED ? 1.0 : Double.NaN), stepScale,
        true, accountant, clip == null, batchSize != null ? batchSize : TrainDefaults.batchSize(n), true);
    requireApplicable(settings);

    stderr.printf(Locale.ROOT, "train: %s, %d training and %d held-out records, d = %d; %s, %s loss, %s (lambda %s),"
            + " epsilon %s, delta %s, %d passes%n", prepared.name(), n, prepared.test() == null ? 0 : prepared.test().size(),
        prepared.train().dimension(), settings.algorithm(), lossValue.cliName(), regValue.cliName(),
        fmt(settings.lambda()), fmt(settings.epsilon()), fmt(settings.delta()), passes);
    if (prepared.bound() != null) {
      stderr.printf(Locale.ROOT, "per person: %d persons in the training records, at most %d records each kept"
              + " (%d over the bound dropped, chosen by a keyed hash of each record)%n", prepared.bound().persons(),
          maxContributions, prepared.bound().dropped());
    }
    ProgressBar progress = ProgressBar.forPasses(stderr, passes);
    long started = System.nanoTime();
    String id = modelId != null ? modelId : prepared.name();
    ErmDataset trainSet = ErmTrainer.dataset(prepared.train(), prepared.bounds());
    ErmDataset testSet = prepared.test() == null ? null : ErmTrainer.dataset(prepared.test(), prepared.bounds());
    ErmTrainer.Trained trained;
    try {
      // Distinct settings or model ids never share noise, even under one key.
      trained = ErmTrainer.train(trainSet, settings, contributionsPerUnit(), source, "train/" + id + "/" + settings,
          progress::passDone);
    } catch (IllegalArgumentException e) {
      stderr.println("train: " + e.getMessage());
      return 1;
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    ErmTrainer.Trained withoutNoise;
    try {
      withoutNoise = ErmTrainer.trainWithoutNoise(trainSet, settings, source, "train-without-noise/" + id + "/" + settings);
    } catch (IllegalArgumentException e) {
      stderr.println("train: " + e.getMessage());
      return 1;
    }

    ModelRelease release = ReleaseOutput.release(id, n, trained);
    ReleaseOutput.write(release, out, encoding);

    double[] w = trained.weights();
    stdout.println("algorithm: " + trained.description());
    stdout.printf(Locale.ROOT, "privacy: epsilon %s, delta %s spent (%s) of the budget (%s, %s)%s%n",
        fmt(trained.epsilonSpent()), fmt(trained.deltaSpent()), trained.accountant(), fmt(settings.epsilon()),
        fmt(settings.delta()), prepared.bound() == null ? "" : String.format(Locale.ROOT,
            "; per person: (%s, %s)-DP for all records of one person, at most %d each", fmt(settings.epsilon()),
            fmt(settings.delta()), maxContributions));
    stdout.printf(Locale.ROOT, "training objective F(w) = %.6g   (F(0) = %.6g)   %d updates in %.2f s%n",
        ErmTrainer.objective(trainSet, settings, w),
        ErmTrainer.objective(trainSet, settings, new double[w.length]), trained.updates(), seconds);
    if (prepared.test() != null) {
      stdout.printf(Locale.ROOT, "held-out objective F(w) = %.6g on %d records%n",
          ErmTrainer.objective(testSet, settings, w), prepared.test().size());
      Evaluation.Metrics metrics = Evaluation.of(prepared.test(), w, lossValue);
      stdout.println("held-out " + metrics.describe());
      stdout.println("NOT PRIVATE, for comparison only (nothing of it is released):");
      stdout.println("  the same algorithm without noise on the same split: held-out "
          + Evaluation.of(prepared.test(), withoutNoise.weights(), lossValue).describe());
      double majority = Evaluation.majorityClassAccuracy(prepared.train(), prepared.test());
      if (!Double.isNaN(majority)) {
        stdout.printf(Locale.ROOT, "  always predicting the training split's majority class: held-out accuracy %.4f%n",
            majority);
      }
    }
    stdout.println("(objective and accuracy are computed from the data and are not private; only the model is)");
    stdout.println("wrote " + out.toAbsolutePath() + " (" + encoding.name().toLowerCase(Locale.ROOT) + " ModelRelease, model "
        + id + ")");
    if (publish) {
      String where = ReleaseOutput.publish(release, bootstrapServers, topic, producerProperties, Duration.ofSeconds(30));
      stdout.println("published to " + where);
    }
    stdout.flush();
    return 0;
  }

  /** k: --max-contributions per person, 1 per record. */
  private int contributionsPerUnit() {
    return maxContributions == null ? 1 : maxContributions;
  }

  Prepared prepare(ErmSettings.Loss lossValue, KeyedNoiseSource source) throws IOException {
    LabelledData train;
    LabelledData test;
    double[] bounds;
    String name;
    ContributionBounding.Kept bound = null;
    if (data.strip().equalsIgnoreCase(FASHION_MNIST)) {
      if (userColumn != null) {
        throw new ParameterException(spec.commandLine(), "--user-column: fashion-mnist has no person column");
      }
      if (featureBound != null) {
        throw new ParameterException(spec.commandLine(),
            "--feature-bound: fashion-mnist's bound is fixed by the format (pixel/255 in [0, 1])");
      }
      int[] pair = parse(() -> FashionMnistBinary.parseClassPair(classes), "--classes");
      train = FashionMnistBinary.load(dataDir.path(), FashionMnist.Split.TRAIN, pair[0], pair[1]);
      test = FashionMnistBinary.load(dataDir.path(), FashionMnist.Split.TEST, pair[0], pair[1]);
      bounds = new double[train.dimension()];
      Arrays.fill(bounds, FashionMnistBinary.FEATURE_BOUND);
      name = "fashion-mnist-" + pair[0] + "v" + pair[1];
    } else {
      if (featureBound == null) {
        throw new ParameterException(spec.commandLine(), "--feature-bound is required for a data file: declare PUBLIC"
            + " bounds |x_j| <= b_j (a number or a file of one per feature); they must not be measured on the data");
      }
      Path file = Path.of(data);
      CsvReader.PersonRecords records = read(file);
      LabelledData all = records.data();
      String[] persons = records.persons();
      if (userColumn != null) {
        requireEveryPerson(persons, file);
      }
      bounds = FeatureBoundsOption.resolve(featureBound, all.dimension());
      all = checkBounds(all, bounds, file);
      all = Labels.forLoss(all, lossValue, file.toString());
      int[] order = DataSplits.shuffledIndices(all.size(), splitSeed);
      int testCount = (int) Math.floor(testFraction * all.size());
      if (all.size() - testCount < 1) {
        throw new ParameterException(spec.commandLine(), "--test-fraction leaves no training record");
      }
      test = testCount == 0 ? null : all.select(Arrays.copyOfRange(order, 0, testCount));
      int[] trainRows = Arrays.copyOfRange(order, testCount, order.length);
      train = all.select(trainRows);
      if (userColumn != null) {
        String[] trainPersons = Arrays.stream(trainRows).mapToObj(i -> persons[i]).toArray(String[]::new);
        bound = ContributionBounding.keep(trainPersons, train.features(), train.labels(), maxContributions, source);
        train = train.select(bound.kept());
      }
      String fileName = file.getFileName().toString();
      name = fileName.contains(".") ? fileName.substring(0, fileName.lastIndexOf('.')) : fileName;
    }
    if (intercept) {
      train = Labels.withIntercept(train);
      test = test == null ? null : Labels.withIntercept(test);
      bounds = Arrays.copyOf(bounds, bounds.length + 1);
      bounds[bounds.length - 1] = 1;
    }
    return new Prepared(train, test, bounds, name, bound);
  }

  /**
   * Stops when records have no person: per person, a record nobody owns has no bound. Counts them and names the
   * first by its record number (never an id).
   */
  private void requireEveryPerson(String[] persons, Path file) {
    int missing = 0;
    int first = -1;
    for (int i = 0; i < persons.length; i++) {
      if (persons[i] == null) {
        missing++;
        first = first < 0 ? i : first;
      }
    }
    if (missing > 0) {
      throw new ParameterException(spec.commandLine(), file + ": " + missing + " of " + persons.length
          + " record(s) have no person in --user-column " + userColumn + " (the first: record " + (first + 1)
          + "); a per-person guarantee needs every record's person: fill the column or drop those records");
    }
  }

  private CsvReader.PersonRecords read(Path file) throws IOException {
    DataFormat dataFormat = parse(() -> DataFormat.resolve(format, file), "--format");
    if (!java.nio.file.Files.isRegularFile(file)) {
      throw new ParameterException(spec.commandLine(), "--data: no such file: " + file);
    }
    if (dataFormat == DataFormat.LIBSVM) {
      if (userColumn != null) {
        throw new ParameterException(spec.commandLine(), "--user-column: only CSV files have a person column");
      }
      LabelledData records =
          LibSvmReader.read(file, dimension == null ? OptionalInt.empty() : OptionalInt.of(dimension)).toDense();
      return new CsvReader.PersonRecords(records, new String[records.size()]);
    }
    CsvReader.Options options = CsvReader.Options.defaults().withHeader(!noHeader)
        .withDelimiter(delimiterChar(file))
        .withLabelColumn(labelColumn == null ? null : CsvReader.LabelColumn.parse(labelColumn))
        .withPersonColumn(userColumn == null ? null : CsvReader.LabelColumn.parse(userColumn));
    return CsvReader.readWithPersons(file, options);
  }

  private char delimiterChar(Path file) {
    if (delimiter == null) {
      return file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".tsv") ? '\t' : ',';
    }
    String d = delimiter.equals("\\t") || delimiter.equalsIgnoreCase("tab") ? "\t" : delimiter;
    if (d.length() != 1) {
      throw new ParameterException(spec.commandLine(), "--delimiter: one character or 'tab', got '" + delimiter + "'");
    }
    return d.charAt(0);
  }

  /** Rejects (or with --clamp-to-bounds clamps) records outside the declared bounds, naming the first one. */
  private LabelledData checkBounds(LabelledData all, double[] bounds, Path file) {
    double[][] x = all.features();
    int clamped = 0;
    for (int i = 0; i < x.length; i++) {
      for (int j = 0; j < bounds.length; j++) {
        if (Math.abs(x[i][j]) > bounds[j]) {
          if (!clamp) {
            throw new ParameterException(spec.commandLine(), file + ": record " + (i + 1) + ", feature " + (j + 1)
                + " = " + x[i][j] + " is outside the declared bound " + bounds[j]
                + " (widen --feature-bound or pass --clamp-to-bounds)");
          }
          x[i][j] = Math.copySign(bounds[j], x[i][j]);
          clamped++;
        }
      }
    }
    if (clamped > 0) {
      spec.commandLine().getErr().println("clamped " + clamped + " feature value(s) into the declared bounds");
    }
    return clamped > 0 ? LabelledData.of(x, all.labels()) : all;
  }

  private ReleaseOutput.Encoding encoding() {
    return switch (outputFormat.strip().toLowerCase(Locale.ROOT)) {
      case "json" -> ReleaseOutput.Encoding.JSON;
      case "avro" -> ReleaseOutput.Encoding.AVRO;
      case "auto" -> out.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".avro")
          ? ReleaseOutput.Encoding.AVRO : ReleaseOutput.Encoding.JSON;
      default -> throw new ParameterException(spec.commandLine(),
          "--output-format: expected json, avro or auto, got '" + outputFormat + "'");
    };
  }

  /** Errors the core would raise, stated with the options that cause them. */
  private void requireApplicable(ErmSettings settings) {
    boolean zcdp = !settings.algorithm().equals("dpsgd") && !settings.algorithm().equals("objective-perturbation");
    require(!zcdp || settings.accountant() != ErmSettings.Accountant.PAPER
            || (settings.epsilon() <= 1 && settings.delta() < 1.0 / 3),
        "--accountant paper: the papers' closed form is proved only for --epsilon <= 1 and --delta < 1/3, got epsilon "
            + fmt(settings.epsilon()) + "; use --accountant tight (the default), which holds for any epsilon");
    boolean baseline = settings.algorithm().endsWith("-perturbation");
    require(!baseline || settings.loss() == ErmSettings.Loss.LOGISTIC,
        "--algorithm " + settings.algorithm() + " needs --loss logistic");
    require(!baseline || settings.reg() == ErmSettings.Reg.L2,
        "--algorithm " + settings.algorithm() + " needs --reg l2");
    require(!baseline || settings.lambda() > 0, "--algorithm " + settings.algorithm() + " needs --lambda > 0");
    require(!settings.algorithm().equals("dpsgd") || settings.expectedBatch() >= 1,
        "--batch-size: must be >= 1, got " + settings.expectedBatch());
  }

  private void validateNumbers() {
    privacy.check(spec);
    require(passes >= 1, "--passes: need at least one pass, got " + passes);
    require(lambda == null || (lambda >= 0 && Double.isFinite(lambda)), "--lambda: must be finite and >= 0, got " + lambda);
    require(l1Ratio >= 0 && l1Ratio <= 1, "--l1-ratio: must be in [0, 1], got " + l1Ratio);
    require(clip == null || (clip > 0 && Double.isFinite(clip)), "--clip: must be positive and finite, got " + clip);
    require(batchSize == null || (batchSize >= 1 && Double.isFinite(batchSize)),
        "--batch-size: must be >= 1 and finite, got " + batchSize);
    require(residualClip == null || (residualClip > 0 && Double.isFinite(residualClip)),
        "--residual-clip: must be positive and finite, got " + residualClip);
    require(stepScale > 0 && Double.isFinite(stepScale), "--step-scale: must be positive and finite, got " + stepScale);
    require(testFraction >= 0 && testFraction < 1, "--test-fraction: must be in [0, 1), got " + testFraction);
    require(dimension == null || dimension >= 1, "--dimension: must be >= 1, got " + dimension);
    require(!publish || (bootstrapServers != null && !bootstrapServers.isBlank()),
        "--publish needs --bootstrap-servers");
    require(!topic.isBlank(), "--topic: must not be blank");
    require((userColumn == null) == (maxContributions == null),
        "--user-column and --max-contributions go together: per person, name the person's column and the most"
            + " records kept per person");
    require(maxContributions == null || maxContributions >= 1,
        "--max-contributions: must be >= 1, got " + maxContributions);
  }

  private void require(boolean condition, String message) {
    OptionChecks.require(spec, condition, message);
  }

  private <T> T parse(java.util.function.Supplier<T> parser, String option) {
    return OptionChecks.parse(spec, parser, option);
  }

  private static KeyedNoiseSource noiseSource(PrintWriter stderr) {
    Map<String, String> environment = System.getenv();
    if (environment.containsKey(NoiseKey.ENVIRONMENT_VARIABLE) || environment.containsKey(NoiseKey.FILE_ENVIRONMENT_VARIABLE)) {
      NoiseKey key = NoiseKey.fromEnvironment(environment);
      stderr.println("noise key: from the environment");
      KeyedNoiseSource source = new KeyedNoiseSource(key);
      key.destroy();
      return source;
    }
    NoiseKey key = NoiseKey.random();
    KeyedNoiseSource source = new KeyedNoiseSource(key);
    key.destroy();
    stderr.println("noise key: a random one-off key (set " + NoiseKey.ENVIRONMENT_VARIABLE + " for reproducible noise)");
    return source;
  }

  private static String fmt(double v) {
    return String.format(Locale.ROOT, "%.4g", v);
  }

  /** For tests: the accepted algorithm names. */
  static List<String> algorithms() {
    return ErmTrainer.ALGORITHMS;
  }

  /** Converts {@code --accountant} (case-insensitive); a wrong value is reported by picocli, naming the option. */
  static final class AccountantConverter extends ParsingConverter<ErmSettings.Accountant> {
    AccountantConverter() {
      super(ErmSettings.Accountant::parse);
    }
  }
}
