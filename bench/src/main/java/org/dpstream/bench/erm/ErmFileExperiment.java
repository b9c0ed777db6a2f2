package org.dpstream.bench.erm;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.dpstream.options.ProgressBar;
import org.dpstream.bench.common.ExperimentKeys;
import org.dpstream.bench.common.Stats;
import org.dpstream.core.data.DataSplits;
import org.dpstream.core.data.LabelledData;
import org.dpstream.core.erm.ErmDataset;
import org.dpstream.core.erm.training.ErmSettings;
import org.dpstream.core.erm.training.ErmTrainer;
import org.dpstream.core.erm.training.Evaluation;
import org.dpstream.core.erm.training.TrainDefaults;

/**
 * {@code erm --data csv:FILE}: what {@code train} gives a user on their own binary-labelled file, over
 * random train/held-out splits. Every algorithm runs with {@code train}'s defaults ({@link TrainDefaults}:
 * no tuning); the baselines (output and objective perturbation, Chaudhuri et al. 2011) run at every lambda
 * of a grid and the one with the best mean held-out accuracy over the splits is reported, an unaccounted
 * advantage that makes the comparison conservative for the other algorithms. Also reported, not private:
 * the non-private optimum of train's objective and the majority class.
 */
final class ErmFileExperiment {

  /** One private (or reference) model's held-out accuracy. */
  record Row(String algorithm, double epsilon, double lambda, int split, double accuracy, String description) {}

  static final String OPTIMUM = "non-private optimum";
  static final String MAJORITY = "majority class";

  private ErmFileExperiment() {}

  /**
   * Runs everything and writes DIR/results.csv and DIR/summary.txt.
   *
   * @param data binary labels 0/1, features within {@code bounds} (intercept already appended if wanted)
   * @param clipQuantile DP-SGD's target quantile for adaptive clipping (train's default unless choosing it)
   * @return the summary table (markdown)
   */
  static String run(String name, LabelledData data, double[] bounds, List<String> algorithms, List<Double> epsilons,
      int splits, double testFraction, List<Double> baselineLambdas, double clipQuantile, Path out, PrintWriter stderr)
      throws IOException {
    int testCount = (int) Math.floor(testFraction * data.size());
    int privateRuns = 0;
    for (String algorithm : algorithms) {
      privateRuns += algorithm.endsWith("-perturbation") ? baselineLambdas.size() : 1;
    }
    ProgressBar progress = ProgressBar.forStream(stderr, splits * epsilons.size() * privateRuns);
    List<Row> rows = new ArrayList<>();
    for (int split = 1; split <= splits; split++) {
      int[] order = DataSplits.shuffledIndices(data.size(), split);
      LabelledData test = data.select(Arrays.copyOfRange(order, 0, testCount));
      LabelledData train = data.select(Arrays.copyOfRange(order, testCount, order.length));
      ErmDataset trainSet = ErmTrainer.dataset(train, bounds);
      int n = train.size();
      ErmSettings reference = TrainDefaults.settings("dpsgd", ErmSettings.Loss.LOGISTIC, ErmSettings.Reg.L2, n, 1);
      rows.add(new Row(OPTIMUM, Double.NaN, reference.lambda(), split,
          accuracy(test, ErmTrainer.nonPrivateOptimum(trainSet, reference)), "NonPrivateSolver"));
      rows.add(new Row(MAJORITY, Double.NaN, Double.NaN, split, Evaluation.majorityClassAccuracy(train, test), ""));
      for (double epsilon : epsilons) {
        for (String algorithm : algorithms) {
          ErmSettings settings = TrainDefaults.settings(algorithm, ErmSettings.Loss.LOGISTIC, ErmSettings.Reg.L2, n,
              epsilon).withClipQuantile(clipQuantile);
          List<Double> lambdas = algorithm.endsWith("-perturbation") ? baselineLambdas : List.of(settings.lambda());
          for (double lambda : lambdas) {
            ErmSettings run = settings.withLambda(lambda);
            String runId = String.join("/", "erm-file", name, algorithm, Double.toString(epsilon),
                Double.toString(lambda), Integer.toString(split));
            ErmTrainer.Trained trained = ErmTrainer.train(trainSet, run, ExperimentKeys.forSeed(split), runId, p -> { });
            rows.add(new Row(algorithm, epsilon, lambda, split, accuracy(test, trained.weights()),
                trained.description()));
            progress.advance(algorithm + " eps=" + epsilon + " lambda=" + lambda + " split " + split);
          }
        }
      }
    }
    Files.createDirectories(out);
    List<String> csv = new ArrayList<>();
    csv.add("data,algorithm,epsilon,lambda,split,accuracy");
    for (Row row : rows) {
      csv.add(String.format(Locale.ROOT, "%s,%s,%s,%s,%d,%.6f", name, row.algorithm(), row.epsilon(), row.lambda(),
          row.split(), row.accuracy()));
    }
    Files.write(out.resolve("results.csv"), csv);
    String summary = summary(name, rows, algorithms, epsilons, splits);
    Files.writeString(out.resolve("summary.txt"), summary);
    return summary;
  }

  private static double accuracy(LabelledData test, double[] weights) {
    return Evaluation.of(test, weights, ErmSettings.Loss.LOGISTIC).accuracy();
  }

  /** Markdown: one row per algorithm, one column per epsilon, mean +- std of the held-out accuracy. */
  static String summary(String name, List<Row> rows, List<String> algorithms, List<Double> epsilons, int splits) {
    StringBuilder text = new StringBuilder();
    text.append("| ").append(name).append(" |");
    for (double epsilon : epsilons) {
      text.append(" eps = ").append(trim(epsilon)).append(" |");
    }
    text.append("\n|---|").append("---|".repeat(epsilons.size())).append("\n");
    for (String algorithm : algorithms) {
      text.append("| ").append(algorithm).append(" |");
      for (double epsilon : epsilons) {
        Map<Double, double[]> byLambda = new LinkedHashMap<>();
        for (Row row : rows) {
          if (row.algorithm().equals(algorithm) && row.epsilon() == epsilon) {
            byLambda.computeIfAbsent(row.lambda(), l -> new double[splits])[row.split() - 1] = row.accuracy();
          }
        }
        double bestLambda = Double.NaN;
        double[] best = null;
        for (Map.Entry<Double, double[]> entry : byLambda.entrySet()) {
          if (best == null || Stats.mean(entry.getValue()) > Stats.mean(best)) {
            best = entry.getValue();
            bestLambda = entry.getKey();
          }
        }
        text.append(' ').append(meanStd(best));
        if (byLambda.size() > 1) {
          text.append(" (lambda ").append(trim(bestLambda)).append(')');
        }
        text.append(" |");
      }
      text.append('\n');
    }
    for (String reference : List.of(OPTIMUM, MAJORITY)) {
      double[] values = rows.stream().filter(r -> r.algorithm().equals(reference)).mapToDouble(Row::accuracy).toArray();
      text.append("| ").append(reference).append(" (not private) |")
          .append((" " + meanStd(values) + " |").repeat(epsilons.size())).append('\n');
    }
    return text.toString();
  }

  private static String meanStd(double[] values) {
    return String.format(Locale.ROOT, "%.3f ± %.3f", Stats.mean(values), Stats.std(values));
  }

  private static String trim(double value) {
    return value == Math.rint(value) && Math.abs(value) < 1e9 ? Long.toString((long) value) : Double.toString(value);
  }
}
