package org.dpstream.cli.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.cli.DpstreamCli;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.service.testing.CommandRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrainCommandTest {

  @TempDir Path dir;

  private static CommandRun run(String... args) {
    return CommandRun.of(DpstreamCli.commandLine(), args);
  }

  /** A separable-ish logistic problem with -1/+1 labels in column "label", features in [-1, 1]. */
  private Path tinyCsv() throws Exception {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(2024L);
    StringBuilder text = new StringBuilder("a,label,b,c\n");
    for (int i = 0; i < 300; i++) {
      double a = rng.nextDouble() * 2 - 1;
      double b = rng.nextDouble() * 2 - 1;
      double c = rng.nextDouble() * 2 - 1;
      int y = a - 0.5 * b > 0 ? 1 : -1;
      text.append(String.format(Locale.ROOT, "%.6f,%d,%.6f,%.6f%n", a, y, b, c));
    }
    Path file = dir.resolve("tiny.csv");
    Files.writeString(file, text.toString());
    return file;
  }

  @Test
  void trainsOnATinyCsvAndWritesAModelReleaseThatDecodes() throws Exception {
    Path csv = tinyCsv();
    Path model = dir.resolve("out/model.json");
    CommandRun outcome = run("train", "--data", csv.toString(), "--feature-bound", "1", "--loss", "logistic", "--reg", "l2",
        "--algorithm", "dpcd-smooth", "--epsilon", "1", "--passes", "5", "--model-id", "tiny-model", "--out", model.toString());
    assertEquals(0, outcome.exitCode(), outcome.err());
    assertTrue(outcome.out().contains("training objective F(w)"), outcome.out());
    assertTrue(outcome.out().contains("held-out accuracy"), outcome.out());
    assertTrue(outcome.err().contains("pass 5/5"), outcome.err());

    ModelRelease release = DpSerdes.modelRelease().decodeOrThrow(Files.readAllBytes(model));
    assertEquals("tiny-model", release.getModelId().toString());
    assertEquals(240, release.getStep()); // n = 300 - 20% held out
    assertEquals(0, release.getEpoch());
    assertEquals(3, release.getParameters().size());
    assertEquals(2.0, release.getP());
    assertTrue(release.getAlgorithm().toString().startsWith("dpcd-smooth"), release.getAlgorithm().toString());
    assertEquals(1.0, release.getLedger().getEpsilon());
    assertEquals(1.0 / (240.0 * 240.0), release.getLedger().getDelta(), 1e-15);
    assertTrue(release.getLedger().getEpsilonSpent() > 0 && release.getLedger().getEpsilonSpent() <= 1.0);
    assertTrue(release.getLedger().getAccountant().toString().contains("zcdp"));
  }

  @Test
  void writesAvroWithAnInterceptForDpsgd() throws Exception {
    Path model = dir.resolve("model.avro");
    CommandRun outcome = run("train", "--data", tinyCsv().toString(), "--feature-bound", "1", "--intercept",
        "--algorithm", "dpsgd", "--passes", "2", "--test-fraction", "0", "--out", model.toString());
    assertEquals(0, outcome.exitCode(), outcome.err());
    byte[] bytes = Files.readAllBytes(model);
    assertEquals((byte) 0xC3, bytes[0]);
    ModelRelease release = DpSerdes.modelRelease().decodeOrThrow(bytes);
    assertEquals(4, release.getParameters().size());
    assertEquals(300, release.getStep());
    assertTrue(release.getLedger().getAccountant().toString().startsWith("rdp"));
  }

  @Test
  void badFilesFailWithTheLineNumber() throws Exception {
    Path ragged = dir.resolve("ragged.csv");
    Files.writeString(ragged, "label,a,b\n1,0.5,0.5\n0,0.1\n");
    CommandRun outcome = run("train", "--data", ragged.toString(), "--feature-bound", "1", "--out", dir.resolve("m.json").toString());
    assertEquals(1, outcome.exitCode());
    assertTrue(outcome.err().contains("line 3: ragged row"), outcome.err());

    Path nan = dir.resolve("nan.libsvm");
    Files.writeString(nan, "+1 1:0.5\n-1 1:nan\n");
    outcome = run("train", "--data", nan.toString(), "--feature-bound", "1", "--out", dir.resolve("m.json").toString());
    assertEquals(1, outcome.exitCode());
    assertTrue(outcome.err().contains("line 2: the value of feature 1 is nan"), outcome.err());
  }

  @Test
  void optionErrors() throws Exception {
    String csv = tinyCsv().toString();
    String model = dir.resolve("m.json").toString();
    CommandRun noBound = run("train", "--data", csv, "--out", model);
    assertEquals(2, noBound.exitCode());
    assertTrue(noBound.err().contains("--feature-bound is required"), noBound.err());

    CommandRun outside = run("train", "--data", csv, "--feature-bound", "0.5", "--out", model);
    assertEquals(2, outside.exitCode());
    assertTrue(outside.err().contains("outside the declared bound 0.5"), outside.err());

    CommandRun unknown = run("train", "--data", csv, "--feature-bound", "1", "--algorithm", "sgd", "--out", model);
    assertEquals(2, unknown.exitCode());
    assertTrue(unknown.err().contains("--algorithm: unknown ERM algorithm 'sgd'"), unknown.err());

    assertEquals(2, run("train", "--data", csv, "--feature-bound", "1", "--loss", "hinge", "--out", model).exitCode());
    assertEquals(2, run("train", "--data", csv, "--feature-bound", "1", "--epsilon", "0", "--out", model).exitCode());
    assertEquals(2, run("train", "--data", csv, "--feature-bound", "1", "--publish", "--out", model).exitCode());
    Path bounds = dir.resolve("bounds.txt");
    Files.writeString(bounds, "1, 1\n");
    CommandRun wrongCount = run("train", "--data", csv, "--feature-bound", bounds.toString(), "--out", model);
    assertEquals(1, wrongCount.exitCode());
    assertTrue(wrongCount.err().contains("holds 2 bounds, the data have 3 features"), wrongCount.err());

    CommandRun labels = run("train", "--data", csv, "--feature-bound", "1", "--label-column", "a", "--out", model);
    assertEquals(1, labels.exitCode());
    assertTrue(labels.err().contains("labels 0/1 or -1/+1"), labels.err());

    CommandRun missing = run("train", "--data", "fashion-mnist", "--data-dir", dir.resolve("absent").toString(), "--out", model);
    assertEquals(1, missing.exitCode());
    assertTrue(missing.err().contains("apt-get install dataset-fashion-mnist"), missing.err());
  }

  /** Like tinyCsv, but feature a is in the thousands (bound 1000) and b in the thousandths (bound 0.001). */
  private Path rawScalesCsv() throws Exception {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(2025L);
    StringBuilder text = new StringBuilder("a,b,label\n");
    for (int i = 0; i < 400; i++) {
      double a = rng.nextDouble() * 2 - 1;
      double b = rng.nextDouble() * 2 - 1;
      text.append(String.format(Locale.ROOT, "%.6f,%.9f,%d%n", 1000 * a, 0.001 * b, a - 0.5 * b > 0 ? 1 : 0));
    }
    Path file = dir.resolve("raw.csv");
    Files.writeString(file, text.toString());
    return file;
  }

  private static double printed(String out, String prefix) {
    int at = out.indexOf(prefix);
    assertTrue(at >= 0, out);
    String rest = out.substring(at + prefix.length()).strip();
    return Double.parseDouble(rest.split("\\s")[0]);
  }

  @Test
  void featuresOfVeryDifferentScalesAreScaledByTheirBoundsAndTheModelIsInOriginalUnits() throws Exception {
    Path bounds = dir.resolve("bounds.txt");
    Files.writeString(bounds, "1000\n0.001\n");
    Path model = dir.resolve("raw.json");
    // Practically no noise: the default DP-SGD run must separate the classes in the raw units.
    CommandRun outcome = run("train", "--data", rawScalesCsv().toString(), "--feature-bound", bounds.toString(),
        "--epsilon", "1e6", "--out", model.toString());
    assertEquals(0, outcome.exitCode(), outcome.err());
    assertTrue(printed(outcome.out(), "held-out accuracy") >= 0.9, outcome.out());
    ModelRelease release = DpSerdes.modelRelease().decodeOrThrow(Files.readAllBytes(model));
    double wa = release.getParameters().get(0);
    double wb = release.getParameters().get(1);
    // The boundary a - 0.5 b = 0 in scaled units is 1000 w_a / (0.001 w_b) = -2 in original ones. The clipped,
    // regularised model's direction is not exactly the boundary's: with the default clip quantile 0.8 the ratio
    // was -2.63 to -3.32 over 14 runs (the one-off noise key changes the batches), so (-4, -1) as before the
    // median was tried (-4.2); a model left in scaled units would be off by a factor 1e6.
    assertTrue(wa > 0 && wb < 0, release.getParameters().toString());
    double ratio = (1000 * wa) / (0.001 * wb);
    assertTrue(ratio < -1 && ratio > -4, "scaled weight ratio " + ratio);
  }

  @Test
  void printsTheSameAlgorithmWithoutNoiseAndTheMajorityClassMarkedNotPrivate() throws Exception {
    CommandRun outcome = run("train", "--data", tinyCsv().toString(), "--feature-bound", "1", "--epsilon", "0.05",
        "--out", dir.resolve("m.json").toString());
    assertEquals(0, outcome.exitCode(), outcome.err());
    assertTrue(outcome.out().contains("NOT PRIVATE"), outcome.out());
    double withoutNoise = printed(outcome.out(), "the same algorithm without noise on the same split: held-out accuracy");
    assertTrue(withoutNoise >= 0.9, outcome.out());
    double majority = printed(outcome.out(), "majority class: held-out accuracy");
    assertTrue(majority > 0.3 && majority < 0.7, outcome.out());
    assertTrue(outcome.out().contains("algorithm: dpsgd") && outcome.out().contains("adaptive quantile clipping"),
        outcome.out());
  }

  @Test
  void anyEpsilonWorksAndThePapersClosedFormIsRefusedByItsOption() throws Exception {
    String csv = tinyCsv().toString();
    String model = dir.resolve("m.json").toString();
    for (String algorithm : new String[] {"dpcd-smooth", "dpskgd-uniform", "output-perturbation",
        "objective-perturbation", "dpsgd"}) {
      CommandRun outcome = run("train", "--data", csv, "--feature-bound", "1", "--algorithm", algorithm, "--epsilon", "10",
          "--passes", "2", "--lambda", "0.01", "--out", model);
      assertEquals(0, outcome.exitCode(), algorithm + ": " + outcome.err());
      ModelRelease release = DpSerdes.modelRelease().decodeOrThrow(Files.readAllBytes(dir.resolve("m.json")));
      assertTrue(release.getLedger().getEpsilonSpent() <= 10, algorithm);
    }
    CommandRun paper = run("train", "--data", csv, "--feature-bound", "1", "--algorithm", "dpcd-smooth", "--epsilon", "10",
        "--accountant", "paper", "--out", model);
    assertEquals(2, paper.exitCode());
    assertTrue(paper.err().contains("--accountant paper") && paper.err().contains("--accountant tight"), paper.err());
    assertTrue(!paper.err().contains("ZcdpRule"), paper.err());

    CommandRun l1 = run("train", "--data", csv, "--feature-bound", "1", "--algorithm", "output-perturbation", "--reg", "l1",
        "--out", model);
    assertEquals(2, l1.exitCode());
    assertTrue(l1.err().contains("needs --reg l2"), l1.err());
    CommandRun squared = run("train", "--data", csv, "--feature-bound", "1", "--algorithm", "objective-perturbation",
        "--loss", "squared", "--out", model);
    assertEquals(2, squared.exitCode());
    assertTrue(squared.err().contains("needs --loss logistic"), squared.err());
    CommandRun batch = run("train", "--data", csv, "--feature-bound", "1", "--batch-size", "0", "--out", model);
    assertEquals(2, batch.exitCode());
    assertTrue(batch.err().contains("--batch-size"), batch.err());
  }

  /**
   * {@link #tinyCsv()}'s records with a "user" column: person i % 40 (persons 0..39 send 7 or 8 records each), the
   * ids "secret-person-N"; {@code blanks} records without a person.
   */
  private Path personCsv(int blanks) throws Exception {
    java.util.List<String> lines = Files.readAllLines(tinyCsv());
    StringBuilder text = new StringBuilder("user," + lines.get(0) + "\n");
    for (int i = 1; i < lines.size(); i++) {
      String user = i <= blanks ? "" : "secret-person-" + (i % 40);
      text.append(user).append(',').append(lines.get(i)).append('\n');
    }
    Path file = dir.resolve("persons.csv");
    Files.writeString(file, text.toString());
    return file;
  }

  @Test
  void perPersonEveryAlgorithmKeepsAtMostKRecordsEachAndTheReleaseNamesTheUnit() throws Exception {
    String csv = personCsv(0).toString();
    Path model = dir.resolve("person.json");
    for (String algorithm : TrainCommand.algorithms()) {
      CommandRun outcome = run("train", "--data", csv, "--feature-bound", "1", "--user-column", "user",
          "--max-contributions", "3", "--algorithm", algorithm, "--passes", "2", "--lambda", "0.01",
          "--out", model.toString());
      assertEquals(0, outcome.exitCode(), algorithm + ": " + outcome.err());
      ModelRelease release = DpSerdes.modelRelease().decodeOrThrow(Files.readAllBytes(model));
      // 240 training records of 40 persons, at most 3 each: 120 kept, 120 dropped.
      assertEquals(120, release.getStep(), algorithm);
      assertTrue(outcome.err().contains("per person: 40 persons in the training records, at most 3 records each kept"
          + " (120 over the bound dropped"), outcome.err());
      assertEquals(3, release.getParameters().size(), "the person column is no feature");
      assertTrue(release.getAlgorithm().toString().contains("up to k=3 records"), release.getAlgorithm().toString());
      assertTrue(release.getLedger().getAccountant().toString().endsWith("per person: up to 3 records each"),
          release.getLedger().getAccountant().toString());
      assertTrue(release.getLedger().getEpsilonSpent() <= 1.0, algorithm);
      assertTrue(outcome.out().contains("per person: (1.000, "), outcome.out());
      String everything = outcome.out() + outcome.err() + Files.readString(model);
      assertTrue(!everything.contains("secret-person"), "an id reached an output");
    }
  }

  @Test
  void perPersonRecordsWithoutAPersonStopTheCommandCounted() throws Exception {
    CommandRun outcome = run("train", "--data", personCsv(4).toString(), "--feature-bound", "1", "--user-column", "user",
        "--max-contributions", "2", "--out", dir.resolve("m.json").toString());
    assertEquals(2, outcome.exitCode(), outcome.err());
    assertTrue(outcome.err().contains("4 of 300 record(s) have no person in --user-column user (the first: record 1)"),
        outcome.err());
    assertTrue(!Files.exists(dir.resolve("m.json")));
  }

  @Test
  void perPersonOptionErrors() throws Exception {
    String csv = personCsv(0).toString();
    String model = dir.resolve("m.json").toString();
    CommandRun alone = run("train", "--data", csv, "--feature-bound", "1", "--user-column", "user", "--out", model);
    assertEquals(2, alone.exitCode());
    assertTrue(alone.err().contains("--user-column and --max-contributions go together"), alone.err());
    CommandRun zero = run("train", "--data", csv, "--feature-bound", "1", "--user-column", "user",
        "--max-contributions", "0", "--out", model);
    assertEquals(2, zero.exitCode());
    assertTrue(zero.err().contains("--max-contributions: must be >= 1"), zero.err());
    CommandRun unknown = run("train", "--data", csv, "--feature-bound", "1", "--user-column", "person",
        "--max-contributions", "2", "--out", model);
    assertEquals(1, unknown.exitCode());
    assertTrue(unknown.err().contains("no column named 'person'"), unknown.err());
  }
}
