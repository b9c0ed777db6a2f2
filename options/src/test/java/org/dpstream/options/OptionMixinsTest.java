package org.dpstream.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.dpstream.core.data.FashionMnist;
import org.dpstream.core.erm.training.ErmSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The shared option mixins and converters, through a command that uses them all. */
class OptionMixinsTest {

  @Command(name = "probe")
  static final class Probe implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;
    @Mixin PrivacyOptions privacy;
    @Mixin OutputDirectoryOption output;
    @Mixin FashionMnistDirectoryOption data;

    @Option(names = "--loss", defaultValue = "logistic", converter = ErmOptionConverters.LossConverter.class)
    ErmSettings.Loss loss;

    @Option(names = "--reg", defaultValue = "l2", converter = ErmOptionConverters.RegConverter.class)
    ErmSettings.Reg reg;

    Path created;

    @Override
    public Integer call() throws Exception {
      privacy.check(spec);
      created = output.create();
      return 0;
    }
  }

  @Command(name = "grid")
  static final class Grid implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;
    @Mixin PrivacyGridOptions privacy;

    @Override
    public Integer call() {
      privacy.check(spec);
      return 0;
    }
  }

  private record Outcome(int code, String err) {}

  private static Outcome run(Object command, String... args) {
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(command);
    cli.setErr(new PrintWriter(err, true));
    cli.setOut(new PrintWriter(new StringWriter(), true));
    return new Outcome(cli.execute(args), err.toString());
  }

  @Test
  void defaultsAreTheCommandsOld(@TempDir Path dir) {
    Probe probe = new Probe();
    assertEquals(0, run(probe, "--out", dir.resolve("a/b").toString()).code());
    assertEquals(1.0, probe.privacy.epsilon());
    assertEquals(0.25, probe.privacy.delta(0.25));
    assertEquals(false, probe.privacy.hasDelta());
    assertEquals(Path.of(FashionMnist.DEFAULT_DIRECTORY_NAME), probe.data.path());
    assertEquals(ErmSettings.Loss.LOGISTIC, probe.loss);
    assertEquals(ErmSettings.Reg.L2, probe.reg);
    assertTrue(Files.isDirectory(dir.resolve("a/b")));
    assertEquals(dir.resolve("a/b"), probe.created);
  }

  @Test
  void givenValuesAreTakenWithTheirAliases(@TempDir Path dir) {
    Probe probe = new Probe();
    assertEquals(0, run(probe, "--out", dir.toString(), "--epsilon", "3", "--delta", "1e-6", "--data-dir", "/x",
        "--loss", "least-squares", "--reg", "Elastic-Net").code());
    assertEquals(3.0, probe.privacy.epsilon());
    assertEquals(1e-6, probe.privacy.delta(0.25));
    assertEquals(Path.of("/x"), probe.data.path());
    assertEquals(ErmSettings.Loss.SQUARED, probe.loss);
    assertEquals(ErmSettings.Reg.ELASTIC_NET, probe.reg);
  }

  @Test
  void badValuesAreUsageErrorsNamingTheOption(@TempDir Path dir) {
    String out = dir.toString();
    Outcome epsilon = run(new Probe(), "--out", out, "--epsilon", "0");
    assertEquals(2, epsilon.code());
    assertTrue(epsilon.err().contains("--epsilon: must be positive and finite, got 0.0"), epsilon.err());
    Outcome delta = run(new Probe(), "--out", out, "--delta", "1");
    assertEquals(2, delta.code());
    assertTrue(delta.err().contains("--delta: must be in (0, 1), got 1.0"), delta.err());
    Outcome loss = run(new Probe(), "--out", out, "--loss", "hinge");
    assertEquals(2, loss.code());
    assertTrue(loss.err().contains("--loss") && loss.err().contains("unknown loss 'hinge'"), loss.err());
    Outcome reg = run(new Probe(), "--out", out, "--reg", "l3");
    assertEquals(2, reg.code());
    assertTrue(reg.err().contains("--reg") && reg.err().contains("unknown regulariser 'l3'"), reg.err());
    Outcome noOut = run(new Probe());
    assertEquals(2, noOut.code());
    assertTrue(noOut.err().contains("--out"), noOut.err());
  }

  @Test
  void theGridTakesSeveralEpsilonsAndChecksEach() {
    Grid grid = new Grid();
    assertEquals(0, run(grid, "--epsilon", "0.5,1,0.5").code());
    assertEquals(List.of(0.5, 1.0, 0.5), grid.privacy.epsilons());
    assertEquals(null, grid.privacy.delta());
    assertEquals(0, run(grid).code());
    assertEquals(List.of(1.0), grid.privacy.epsilons());
    Outcome bad = run(new Grid(), "--epsilon", "1,-2");
    assertEquals(2, bad.code());
    assertTrue(bad.err().contains("--epsilon: must be positive and finite, got -2.0"), bad.err());
  }
}
