package org.dpstream.bench.bandite2e;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.CommonClientConfigs;
import org.dpstream.service.kafka.Topics;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The load client of bandit-e2e, in a JVM of its own ({@link ClientProcess} starts it): a real client runs
 * apart from the service it calls. In the service's JVM, the client's garbage and its JIT compilations were
 * the service's: its young collections paused the server, and Netty's HTTP decoder, shared by the server's
 * request decoder and the client's response decoder, was compiled again for the client's profile under the
 * first second of load (1.5 s of C2 time in a JFR recording, docs/benchmarks.md, "What the young collections copy").
 *
 * <p>It regenerates the run's workload from the seed, warms its own code up against a stand-in ({@link ClientWarmUp}),
 * offers the workload, prints {@link #LOAD_ENDED} on a line of its
 * own as soon as the last decision arrived (the bench reads how far learning had come at that moment), then its
 * report: the client line (HTTP) and the workload's summary.
 */
@Command(name = "bandit-e2e-client", description = "The load client of bandit-e2e (started by it).")
public final class BanditLoadClient implements Callable<Integer> {

  /** The line that says the load has ended; the report follows it. */
  static final String LOAD_ENDED = "bandit-e2e-client: load ended";
  /** The line that says the service's warm-up was offered; the client then waits for {@link ClientProcess#RESUME}. */
  static final String SERVICE_WARMED_UP = "bandit-e2e-client: service warm-up offered";
  /** The service warm-up's rate when the measured run's is 0 (as fast as possible): a rate learning keeps up with. */
  static final double SATURATION_WARM_UP_RATE = 2_000;

  @Option(names = "--path", required = true) BanditEndToEndCommand.Path path;
  @Option(names = "--port", defaultValue = "-1", description = "the decision API's port (--path http)") int port;
  @Option(names = "--bootstrap", description = "the broker (--path kafka, topology)") String bootstrap;
  @Option(names = "--bandit", required = true) String banditId;
  @Option(names = "--d", required = true) int dimension;
  @Option(names = "--K", required = true) int arms;
  @Option(names = "--requests", required = true) int requests;
  @Option(names = "--rate", required = true) double rate;
  @Option(names = "--seed", required = true) long seed;
  @Option(names = "--connections", required = true) int connections;
  @Option(names = "--reward-connections", required = true) int rewardConnections;
  @Option(names = "--window", required = true) int window;
  @Option(names = "--service-warm-up", required = true) int serviceWarmUp;
  @Option(names = "--warm-up-bandit", required = true) String warmUpBandit;

  private final PrintStream out;

  private final BufferedReader in;

  BanditLoadClient(PrintStream out, BufferedReader in) {
    this.out = out;
    this.in = in;
  }

  public static void main(String[] args) {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    System.exit(new CommandLine(new BanditLoadClient(out, in)).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    Workload workload = new Workload(dimension, arms, requests, seed, rate);
    if (path == BanditEndToEndCommand.Path.HTTP) {
      ClientWarmUp.http(dimension, arms, seed, connections, rewardConnections);
    } else {
      ClientWarmUp.kafka(bootstrap, dimension, arms, seed);
    }
    // One Kafka client for the warm-up and the measured load: the measured load meets no new connection.
    try (KafkaLoad kafka = path == BanditEndToEndCommand.Path.HTTP ? null
        : new KafkaLoad(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap), Topics.defaults())) {
      return offerBoth(workload, kafka);
    }
  }

  /** The service's warm-up (unless none), then the measured workload, then the report. */
  private int offerBoth(Workload workload, KafkaLoad kafka) throws Exception {
    if (serviceWarmUp > 0) {
      // The service's warm-up: the same shape of load on a bandit of its own, through every path the measured load
      // takes (API or context decider, producers, broker, learning, releases), so the measured bandit starts fresh
      // in a warm service, as it would in one that has been serving. The bench resumes once learning caught up.
      offer(new Workload(dimension, arms, serviceWarmUp, ~seed, rate > 0 ? rate : SATURATION_WARM_UP_RATE),
          warmUpBandit, kafka);
      out.println(SERVICE_WARMED_UP);
      ClientProcess.awaitResume(in);
    }
    String client = offer(workload, banditId, kafka);
    out.println(LOAD_ENDED);
    out.print(client);
    out.println(workload.describe());
    out.flush();
    return 0;
  }

  /** Offers a workload to a bandit over the path (Kafka: with {@code kafka}); over HTTP, returns the client's line. */
  private String offer(Workload workload, String bandit, KafkaLoad kafka) throws Exception {
    if (path == BanditEndToEndCommand.Path.HTTP) {
      return HttpLoad.run(workload, port, bandit, apiToken(), connections, rewardConnections) + System.lineSeparator();
    }
    kafka.run(workload, bandit, workload.rate() > 0 ? 0 : window);
    return "";
  }

  /**
   * The environment variable that hands the client its bearer token: not an argument, which every user of the machine
   * can read in the process list.
   */
  static final String TOKEN_ENVIRONMENT_VARIABLE = "DPSTREAM_BENCH_API_TOKEN";

  private static String apiToken() {
    String token = System.getenv(TOKEN_ENVIRONMENT_VARIABLE);
    if (token == null || token.isEmpty()) {
      throw new IllegalStateException(TOKEN_ENVIRONMENT_VARIABLE + " is not set: the decision API needs a token");
    }
    return token;
  }

  /** The arguments that make the client offer {@code command}'s load to a service at {@code port}/{@code bootstrap}. */
  static String[] arguments(BanditEndToEndCommand command, BanditEndToEndCommand.Path path, String banditId, int port,
      String bootstrap) {
    return new String[] {
        "--path", path.name(), "--port", Integer.toString(port), "--bootstrap", bootstrap, "--bandit", banditId,
        "--d", Integer.toString(command.shape.dimension()), "--K", Integer.toString(command.shape.arms()),
        "--requests", Integer.toString(command.requests), "--rate", String.format(Locale.ROOT, "%s", command.rate),
        "--seed", Long.toString(command.seed), "--connections", Integer.toString(command.connections),
        "--reward-connections",
        Integer.toString(command.rewardConnections == null ? command.connections : command.rewardConnections),
        "--window", Integer.toString(command.window),
        "--service-warm-up", Integer.toString(command.serviceWarmUp),
        "--warm-up-bandit", BanditEndToEndCommand.WARM_UP_BANDIT};
  }
}
