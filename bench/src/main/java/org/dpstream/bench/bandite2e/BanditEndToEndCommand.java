package org.dpstream.bench.bandite2e;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.streams.StreamsConfig;
import org.dpstream.bench.common.BenchBanditOptions;
import org.dpstream.bench.e2e.MachineFacts;
import org.dpstream.core.privacy.random.NoiseKey;
import org.dpstream.service.config.BanditConfig;
import org.dpstream.service.config.DeciderConfig;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.decide.http.ApiTokens;
import org.dpstream.service.kafka.TopicNames;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.streams.DpstreamService;
import org.dpstream.testkit.EmbeddedKafka;
import org.dpstream.testkit.TemporaryDirectory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code dpstream-bench bandit-e2e}: the bandit decision service through a real (embedded) broker, on one of
 * three paths:
 *
 * <ul>
 *   <li>{@code http}: the deciders' HTTP API; each decision is answered once it is in the decision log;
 *   <li>{@code kafka}: contexts on dp.contexts decided by the deciders' context decider (at-least-once);
 *   <li>{@code topology}: decisions made inside the learning transaction (before the deciders), visible to
 *       a read_committed reader at commit.
 * </ul>
 *
 * The client offers {@code --rate} requests per second on an open-loop schedule (latency counts from each
 * request's due time, so a slow server cannot slow the offered load down and hide its queueing) or, with
 * {@code --rate 0}, as fast as it can ({@code --connections} in flight over HTTP, {@code --window} over
 * Kafka). The service and the broker share this JVM; the client runs in a JVM of its own ({@link BanditLoadClient},
 * on the same machine), as a real client would. The HTTP client ({@link HttpLoad}) drives all its keep-alive
 * connections from one Netty event-loop thread, so that it costs the machine little CPU. It answers
 * each decision at once with the environment's reward (over HTTP on {@code --reward-connections} of their
 * own, by default as many as {@code --connections}, so that rewards keep pace with decisions), so the
 * service learns while it decides, and the regret per round is printed next to uniformly random arms' on
 * the same contexts: speed never hides a policy that stopped learning.
 */
@Command(
    name = "bandit-e2e",
    mixinStandardHelpOptions = true,
    description = "Bandit decision service end to end through a real (embedded) broker:"
        + " decisions/s, latency (p50, p99, max) and regret per round against random arms.")
public final class BanditEndToEndCommand implements Callable<Integer> {

  private static final String BANDIT = "bench-bandit";
  /** The bandit the service's warm-up load goes to (the same spec as the measured one). */
  static final String WARM_UP_BANDIT = "bench-bandit-warm-up";
  /** How long the bench waits for learning to catch up with the warm-up load. */
  private static final Duration WARM_UP_LEARNING_TIMEOUT = Duration.ofSeconds(60);

  /** How requests reach the decision. */
  enum Path { HTTP, KAFKA, TOPOLOGY }

  @Spec CommandSpec spec;

  @Option(names = "--path", defaultValue = "http",
      description = "http, kafka or topology (decided in the learning transaction) (default: ${DEFAULT-VALUE})")
  String path;

  @Mixin BenchBanditOptions shape; // --d, --K

  @Option(names = "--requests", defaultValue = "100000", description = "decision requests (default: ${DEFAULT-VALUE})")
  int requests;

  @Option(names = "--rate", defaultValue = "2000",
      description = "offered requests per second, open loop; 0: as fast as possible (default: ${DEFAULT-VALUE})")
  double rate;

  @Option(names = "--connections", defaultValue = "64",
      description = "HTTP decision connections, i.e. most decision requests in flight (default: ${DEFAULT-VALUE})")
  int connections;

  @Option(names = "--reward-connections",
      description = "HTTP connections of the rewards, one reward in flight each (default: as many as --connections,"
          + " so that rewards keep pace with decisions)")
  Integer rewardConnections;

  @Option(names = "--window", defaultValue = "1000",
      description = "Kafka paths with --rate 0: most requests in flight (default: ${DEFAULT-VALUE})")
  int window;

  @Option(names = "--commit-interval-ms", defaultValue = "100",
      description = "Kafka Streams commit.interval.ms (the topology path's decisions wait for it)"
          + " (default: ${DEFAULT-VALUE}, the service's default)")
  int commitIntervalMs;

  @Option(names = "--service-warm-up", defaultValue = "20000",
      description = "requests offered to a second bandit of the same shape, through the same path and at the same"
          + " rate (2,000/s with --rate 0), before the measured load; the measured load starts once learning has"
          + " joined them, so it meets a service that has been serving, as in production. 0: a cold service"
          + " (default: ${DEFAULT-VALUE})")
  int serviceWarmUp;

  @Option(names = "--seed", defaultValue = "1", description = "seed of the environment (default: ${DEFAULT-VALUE})")
  long seed;

  @Option(names = "--stand-in",
      description = "--path http only: the same client against a stand-in for the API in this JVM that answers"
          + " every request with arm 0 and decides, writes and learns nothing: the most decisions per second this"
          + " machine exchanges over the API's HTTP at all, the ceiling of any service behind it")
  boolean standIn;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    Path chosen;
    try {
      chosen = Path.valueOf(path.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--path must be http, kafka or topology, got " + path);
    }
    if (shape.dimension() < 1 || shape.arms() < 2 || requests < 1 || window < 1 || connections < 1
        || commitIntervalMs < 1 || serviceWarmUp < 0 || serviceWarmUp == 1
        || rewardConnections != null && rewardConnections < 1 || !(rate >= 0) || Double.isInfinite(rate)) {
      throw new IllegalArgumentException("--d, --requests, --window, --connections, --reward-connections,"
          + " --commit-interval-ms must be positive, --K >= 2, --rate >= 0, --service-warm-up 0 or >= 2");
    }
    if (standIn && chosen != Path.HTTP) {
      throw new IllegalArgumentException("--stand-in stands in for the HTTP API: use it with --path http");
    }
    out.println(MachineFacts.describe());
    out.printf(Locale.ROOT, "bandit-e2e --path %s: %,d requests, d = %d, K = %d, %s, 1 partition, 1 stream thread,"
        + " commit.interval.ms %d%n", chosen.name().toLowerCase(Locale.ROOT), requests, shape.dimension(), shape.arms(),
        rate > 0 ? String.format(Locale.ROOT, "open loop at %,.0f requests/s", rate)
            : chosen == Path.HTTP ? "as fast as possible, " + connections + " connections"
            : "as fast as possible, window " + window, commitIntervalMs);
    out.printf(Locale.ROOT, "service warm-up: %s%n", serviceWarmUp == 0 ? "none (a cold service)"
        : String.format(Locale.ROOT, "%,d requests to %s before the measured load", serviceWarmUp,
            standIn ? "the stand-in" : "bandit " + WARM_UP_BANDIT + " (same shape, same path)"));
    out.flush();
    if (standIn) {
      return againstStandIn(out);
    }
    try (TemporaryDirectory state = TemporaryDirectory.create("dpstream-bench-bandit-");
        EmbeddedKafka kafka = EmbeddedKafka.start()) {
      Topics topics = Topics.defaults();
      kafka.createTopics(topics.newTopics(1));
      // The client authenticates as any client of the API must: a token made for this run, whose file (in the run's
      // temporary directory) holds only its digest; the client gets it in its environment.
      java.nio.file.Path tokens = state.path().resolve("api-tokens");
      String apiToken = ApiTokens.writeNewTokenFile(tokens, "bench-client");
      ServiceConfig config = new ServiceConfig("bench-bandit", TopicNames.defaults(), List.of(), Map.of(
          StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
          StreamsConfig.STATE_DIR_CONFIG, state.path().toString(),
          StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, Integer.toString(commitIntervalMs)), 0,
          bandits())
          .withDecider(switch (chosen) {
            case HTTP -> DeciderConfig.deciders(0, false).withAuthentication("bearer", tokens.toString());
            case KAFKA -> DeciderConfig.deciders(-1, true);
            case TOPOLOGY -> DeciderConfig.decidingInTopology();
          });
      PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
      try (DpstreamService service = DpstreamService.start(config, NoiseKey.random(), registry)) {
        if (!service.awaitRunning(Duration.ofSeconds(60))) {
          throw new IllegalStateException("the service did not start: " + service.state());
        }
        // Offer load only once the service says it is ready (/ready: streams running, the deciders' follower
        // caught up with the releases committed at start), as a load balancer would; every request offered
        // after that is measured.
        awaitReady(service, Duration.ofSeconds(60));
        // The client runs in a JVM of its own, as a real one would (BanditLoadClient). The learnt line is read when
        // it says the load has ended, before the service stops. What the broker took in is counted from the start of
        // the measured load (once the warm-up is learnt; without a warm-up, from the client's start, its own warm-up
        // included) to its end.
        AtomicReference<BrokerTraffic> loadStart = new AtomicReference<>(BrokerTraffic.read());
        print(out, ClientProcess.run(BanditLoadClient.class,
            BanditLoadClient.arguments(this, chosen, BANDIT,
                chosen == Path.HTTP ? service.deciders().orElseThrow().httpPort().orElseThrow() : -1,
                kafka.bootstrapServers()),
            Map.of(BanditLoadClient.TOKEN_ENVIRONMENT_VARIABLE, apiToken),
            BanditLoadClient.SERVICE_WARMED_UP, () -> {
              awaitWarmUpLearnt(registry, out);
              loadStart.set(BrokerTraffic.read());
            },
            BanditLoadClient.LOAD_ENDED,
            () -> learnt(registry) + System.lineSeparator() + BrokerTraffic.read().since(loadStart.get(),
                serviceWarmUp == 0 ? "from the client's start to the load's end" : "while the load ran")));
      }
    }
    return 0;
  }

  /**
   * The client against {@link StandInApi} instead of the service (as many event loops as the API's default, one per
   * processor): no broker, no decision, no learning. The regret is arm 0's.
   */
  private int againstStandIn(PrintWriter out) throws Exception {
    out.println("service: a stand-in that answers every request with arm 0 (no decision, no Kafka, no learning)");
    out.flush();
    try (StandInApi api = StandInApi.start(Runtime.getRuntime().availableProcessors())) {
      print(out, ClientProcess.run(BanditLoadClient.class,
          BanditLoadClient.arguments(this, Path.HTTP, BANDIT, api.port(), ""),
          Map.of(BanditLoadClient.TOKEN_ENVIRONMENT_VARIABLE, ApiTokens.newToken()), // the stand-in checks none
          BanditLoadClient.SERVICE_WARMED_UP, () -> { },
          BanditLoadClient.LOAD_ENDED, () -> "learnt: nothing (a stand-in)"));
    }
    return 0;
  }

  /** The client's report, then what was read when its load ended. */
  private static void print(PrintWriter out, ClientProcess.Report<String> report) {
    report.lines().forEach(out::println);
    out.println(report.atMarker());
    out.flush();
  }

  /** The measured bandit, and the warm-up's (horizon: its requests) unless there is no warm-up. */
  private List<BanditConfig> bandits() {
    BanditConfig measured = bandit(BANDIT, requests);
    return serviceWarmUp == 0 ? List.of(measured) : List.of(measured, bandit(WARM_UP_BANDIT, serviceWarmUp));
  }

  private BanditConfig bandit(String id, long horizon) {
    return shape.bandit(id, horizon, "60s", 1);
  }

  /** Waits until learning has joined every warm-up round (for at most a minute), and says how long it took. */
  private void awaitWarmUpLearnt(MeterRegistry registry, PrintWriter out) {
    long started = System.nanoTime();
    long deadline = started + WARM_UP_LEARNING_TIMEOUT.toNanos();
    double joined = joined(registry, WARM_UP_BANDIT);
    while (joined < serviceWarmUp && System.nanoTime() < deadline) {
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while the warm-up was being learnt", e);
      }
      joined = joined(registry, WARM_UP_BANDIT);
    }
    out.printf(Locale.ROOT, "service warm-up: %,.0f of %,d rounds learnt %.1f s after the warm-up load ended%s%n",
        joined, serviceWarmUp, (System.nanoTime() - started) / 1e9,
        joined < serviceWarmUp ? " (gave up waiting)" : "");
    out.flush();
  }

  private static double joined(MeterRegistry registry, String bandit) {
    return registry.find("dpstream.bandit.rewards.joined").tag("bandit", bandit).counters().stream()
        .mapToDouble(Counter::count).sum();
  }

  /**
   * The rounds learning had joined and the step the deciders had released when the load ended: decisions are
   * made from the released step, so a learner that falls behind the offered rate shows here first (the regret
   * of DP-HDB at d = 50 is close to random's for thousands of rounds, and cannot tell; docs/bandit-decider.md,
   * "Learning at 2,000 rounds/s").
   */
  static String learnt(MeterRegistry registry) {
    double joined = joined(registry, BANDIT);
    double step = registry.find("dpstream.decider.released.step").tag("bandit", BANDIT).gauges().stream()
        .mapToDouble(Gauge::value).max().orElse(Double.NaN);
    return String.format(Locale.ROOT, "learnt when the load ended: %,.0f rounds joined; the deciders' released step %s",
        joined, Double.isNaN(step) ? "none (no deciders)" : String.format(Locale.ROOT, "%,.0f", step));
  }

  private static void awaitReady(DpstreamService service, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!service.health().readiness().ok()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the service did not become ready: " + service.health().readiness().details());
      }
      Thread.sleep(20);
    }
  }
}
