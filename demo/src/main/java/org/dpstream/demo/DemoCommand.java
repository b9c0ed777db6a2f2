package org.dpstream.demo;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.dpstream.service.cli.DurationConverter;
import org.dpstream.service.serde.OutputFormat;
import org.dpstream.testkit.EmbeddedKafka;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code dpstream demo}: the whole pipeline on one machine, with synthetic data. */
@Command(
    name = "demo",
    description = {
      "Run the whole pipeline on this machine: a real Kafka broker (KRaft, in-process, temporary directory),"
          + " the service, and a synthetic linear-regression stream (Han et al., section 5.2) for three models"
          + " (p = 1.5, inf, 1), plus a DP-Linear bandit answering a simulated environment. Shows progress, serves /metrics, and ends with a summary and a PNG of the"
          + " test risk of the released models.",
      "The noise key is a random one-off key; nothing is kept after the run except the PNG."
    })
public final class DemoCommand implements Callable<Integer> {

  /** Exit code of a --kafka-port that is taken: a usage error, as picocli's own. */
  static final int PORT_IN_USE = 2;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
  boolean help;

  @Option(names = "--samples", defaultValue = "100000", paramLabel = "N",
      description = "samples per model (also each model's horizon); default ${DEFAULT-VALUE}")
  long samplesPerModel;

  @Option(names = "--duration", defaultValue = "60s", paramLabel = "TIME", converter = DurationConverter.class,
      description = "stop streaming after this long even if samples are left, e.g. 90s, 5m; default ${DEFAULT-VALUE}")
  Duration duration;

  @Option(names = "--rate", defaultValue = "0", paramLabel = "SAMPLES_PER_S",
      description = "total send rate over all models; 0 = as fast as the service takes them (default)")
  double samplesPerSecond;

  @Option(names = "--keep-running",
      description = "after the summary, keep broker, service and /metrics up until Ctrl-C")
  boolean keepRunning;

  @Option(names = "--metrics-port", defaultValue = "9400", paramLabel = "PORT",
      description = "port of http://localhost:PORT/metrics (a free one if taken; 0 = any); default ${DEFAULT-VALUE}")
  int metricsPort;

  @Option(names = "--kafka-port", defaultValue = "0", paramLabel = "PORT",
      description = "port of the embedded Kafka broker (bootstrap 127.0.0.1:PORT, printed at start, e.g. for kcat);"
          + " default 0 = any free port")
  int kafkaPort;

  @Option(names = "--out", defaultValue = "dpstream-demo-out", paramLabel = "DIR",
      description = "directory for " + DemoRun.PLOT_FILE + " (created if missing); default ${DEFAULT-VALUE}")
  Path outDirectory;

  @Option(names = "--seed", defaultValue = "1", paramLabel = "SEED",
      description = "seed of the synthetic data (simulation randomness, not privacy noise); default ${DEFAULT-VALUE}")
  long seed;

  @Option(names = "--test-size", defaultValue = "4000", paramLabel = "N",
      description = "held-out points per model for the test risk; default ${DEFAULT-VALUE}")
  int testSetSize;

  @Option(names = "--bandit-requests", defaultValue = "20000", paramLabel = "N",
      description = "decision requests the simulated bandit environment sends (0 = no bandit); default ${DEFAULT-VALUE}")
  int banditRequests;

  @Option(names = "--output-format", defaultValue = "avro", paramLabel = "FORMAT",
      description = "avro | json: how the service writes dp.releases, dp.decisions and dp.rejected"
          + " (json reads with kcat); default ${DEFAULT-VALUE}")
  String outputFormat;

  @Override
  public Integer call() throws Exception {
    CommandLine commandLine = spec.commandLine();
    DemoOptions options;
    try {
      options = new DemoOptions(samplesPerModel, duration, samplesPerSecond, keepRunning, metricsPort, kafkaPort,
          outDirectory, seed, testSetSize, OutputFormat.parse(outputFormat, "--output-format"));
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(commandLine, e.getMessage(), e);
    }
    if (banditRequests < 0) {
      throw new CommandLine.ParameterException(commandLine, "--bandit-requests must not be negative");
    }
    try {
      return new DemoRun(options, DemoModel.defaults(), banditRequests, commandLine.getOut(), commandLine.getErr())
          .execute();
    } catch (EmbeddedKafka.PortInUseException e) {
      commandLine.getErr().println("--kafka-port " + e.port() + ": the port is in use on 127.0.0.1;"
          + " choose another, or 0 for any free port");
      commandLine.getErr().flush();
      return PORT_IN_USE;
    }
  }
}
