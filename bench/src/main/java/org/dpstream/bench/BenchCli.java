package org.dpstream.bench;

import java.util.ArrayList;
import java.util.List;
import org.dpstream.bench.bandit.BanditExperimentCommand;
import org.dpstream.bench.bandite2e.BanditEndToEndCommand;
import org.dpstream.bench.banditlearn.BanditLearningCommand;
import org.dpstream.bench.dda.DdaExperimentCommand;
import org.dpstream.bench.e2e.EndToEndBenchmarkCommand;
import org.dpstream.bench.erm.ErmExperimentCommand;
import org.dpstream.bench.ofw.ConvergenceCommand;
import org.dpstream.bench.ofw.OfwExperimentCommand;
import org.dpstream.bench.scan.ReleaseScanCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of {@code dpstream-bench.jar}: benchmarks and paper reproductions. */
@Command(
    name = "dpstream-bench",
    mixinStandardHelpOptions = true,
    version = "dpstream-bench",
    description = "Benchmarks (JMH) and paper-reproduction experiments for dpstream.",
    subcommands = {
      BenchCli.JmhCommand.class, OfwExperimentCommand.class, ConvergenceCommand.class, BanditExperimentCommand.class,
      EndToEndBenchmarkCommand.class, BanditEndToEndCommand.class, ErmExperimentCommand.class,
      DdaExperimentCommand.class, BanditLearningCommand.class, ReleaseScanCommand.class, CommandLine.HelpCommand.class})
public final class BenchCli implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) throws Exception {
    System.exit(new CommandLine(new BenchCli()).execute(args));
  }

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** Hands its arguments to JMH's own runner, so every JMH option (-f, -wi, -i, -p, -rf ...) works. */
  @Command(
      name = "jmh",
      description = "Run the JMH benchmarks; arguments go to JMH unchanged (try: jmh -h, jmh -l).")
  static final class JmhCommand implements java.util.concurrent.Callable<Integer> {
    @CommandLine.Unmatched List<String> jmhArguments = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
      org.openjdk.jmh.Main.main(jmhArguments.toArray(String[]::new));
      return 0;
    }
  }
}
