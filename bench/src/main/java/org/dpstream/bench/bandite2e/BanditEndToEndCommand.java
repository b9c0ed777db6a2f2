package org.dpstream.bench.bandite2e;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.StreamsConfig;
import org.dpstream.app.config.BanditConfig;
import org.dpstream.app.config.ServiceConfig;
import org.dpstream.app.kafka.CheckedProducer;
import org.dpstream.app.kafka.EmbeddedKafka;
import org.dpstream.app.kafka.TopicNames;
import org.dpstream.app.kafka.Topics;
import org.dpstream.app.serde.DpSerdes;
import org.dpstream.app.serde.SchemaSerde;
import org.dpstream.app.service.DpstreamService;
import org.dpstream.bandit.env.BanditRound;
import org.dpstream.bandit.env.SyntheticLinearEnvironment;
import org.dpstream.bench.e2e.MachineFacts;
import org.dpstream.core.privacy.random.NoiseKey;
import org.dpstream.schemas.DecisionRequest;
import org.dpstream.schemas.DecisionResponse;
import org.dpstream.schemas.Reward;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code dpstream-bench bandit-e2e}: the bandit decision service through a real (embedded) broker with
 * exactly-once. A client sends contexts of the synthetic linear bandit (at most {@code --window} in
 * flight), reads the decisions as a downstream consumer (read_committed) and answers each with its
 * reward at once, so the service decides and learns (one DP-HDB round per reward) at the same time.
 * Measures decisions per second and the latency from a context being sent to its decision being read.
 */
@Command(
    name = "bandit-e2e",
    mixinStandardHelpOptions = true,
    description = "Bandit decision service end to end through a real (embedded) broker, exactly-once:"
        + " decisions/s and context-to-decision latency.")
public final class BanditEndToEndCommand implements Callable<Integer> {

  private static final String BANDIT = "bench-bandit";
  private static final Duration STALL = Duration.ofSeconds(60);

  @Spec CommandSpec spec;

  @Option(names = "--d", defaultValue = "50", description = "context dimension (default: ${DEFAULT-VALUE})")
  int dimension;

  @Option(names = "--K", defaultValue = "5", description = "arms (default: ${DEFAULT-VALUE})")
  int arms;

  @Option(names = "--requests", defaultValue = "200000", description = "decision requests (default: ${DEFAULT-VALUE})")
  int requests;

  @Option(names = "--window", defaultValue = "1000",
      description = "most requests in flight (sent, decision not yet read) (default: ${DEFAULT-VALUE})")
  int window;

  @Option(names = "--commit-interval-ms", defaultValue = "100",
      description = "Kafka Streams commit.interval.ms: decisions are visible under read_committed only after"
          + " the commit (default: ${DEFAULT-VALUE}, the service's default)")
  int commitIntervalMs;

  @Option(names = "--seed", defaultValue = "1", description = "seed of the environment (default: ${DEFAULT-VALUE})")
  long seed;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    if (dimension < 1 || arms < 2 || requests < 1 || window < 1 || commitIntervalMs < 1) {
      throw new IllegalArgumentException("--d, --requests, --window, --commit-interval-ms must be positive, --K >= 2");
    }
    out.println(MachineFacts.describe());
    out.printf(Locale.ROOT, "bandit-e2e: %,d requests, d = %d, K = %d, window %,d, commit.interval.ms %d,"
        + " exactly_once_v2, 1 partition, 1 stream thread%n", requests, dimension, arms, window, commitIntervalMs);
    out.flush();
    Path state = Files.createTempDirectory("dpstream-bench-bandit-");
    try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
      Topics topics = Topics.defaults();
      kafka.createTopics(topics.specs(1));
      ServiceConfig config = new ServiceConfig("bench-bandit", TopicNames.defaults(), List.of(), Map.of(
          StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
          StreamsConfig.STATE_DIR_CONFIG, state.toString(),
          StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, Integer.toString(commitIntervalMs)), 0,
          List.of(new BanditConfig(BANDIT, dimension, arms, "identity", 1.0, "0.1", null, 1, 1e-5, requests, 1.0,
              1.2, "60s", "drop", null, 1)));
      try (DpstreamService service = DpstreamService.start(config, freshKey(),
          new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))) {
        if (!service.awaitRunning(Duration.ofSeconds(60))) {
          throw new IllegalStateException("the service did not start: " + service.state());
        }
        Result result = run(kafka, topics);
        out.println(result.describe());
        out.flush();
      }
    } finally {
      deleteRecursively(state);
    }
    return 0;
  }

  private record Result(int decisions, long nanos, long[] latencies, double meanRegret, double optimalRate,
      Map<Integer, Integer> perArm) {
    String describe() {
      long[] sorted = latencies.clone();
      Arrays.sort(sorted);
      return String.format(Locale.ROOT,
          "decisions: %,d in %.2f s = %,.0f decisions/s (first send to last decision read)%n"
              + "latency context sent -> decision read (read_committed): p50 %.1f ms, p99 %.1f ms, max %.1f ms%n"
              + "decisions per arm %s; mean regret per round %.4f, optimal arm %.1f %%",
          decisions, nanos / 1e9, decisions / (nanos / 1e9), percentile(sorted, 0.50) / 1e6,
          percentile(sorted, 0.99) / 1e6, sorted[sorted.length - 1] / 1e6, perArm, meanRegret, 100 * optimalRate);
    }
  }

  private Result run(EmbeddedKafka kafka, Topics topics) throws Exception {
    SyntheticLinearEnvironment environment = new SyntheticLinearEnvironment(dimension, arms, seed);
    BanditRound[] rounds = new BanditRound[requests];
    long[] sentAt = new long[requests];
    long[] latencies = new long[requests];
    Semaphore inFlight = new Semaphore(window);
    byte[] key = BANDIT.getBytes(StandardCharsets.UTF_8);
    SchemaSerde<DecisionRequest> requestSerde = DpSerdes.decisionRequest();
    SchemaSerde<Reward> rewardSerde = DpSerdes.reward();
    SchemaSerde<DecisionResponse> decisionSerde = DpSerdes.decisionResponse();
    Map<String, Object> consumerConfig = new HashMap<>(kafka.clientConfig());
    consumerConfig.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    consumerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    consumerConfig.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 5);

    try (CheckedProducer<byte[], byte[]> producer = CheckedProducer.create(kafka.clientConfig(),
            Map.of(ProducerConfig.LINGER_MS_CONFIG, 1), new ByteArraySerializer(), new ByteArraySerializer());
        KafkaConsumer<String, byte[]> consumer =
            new KafkaConsumer<>(consumerConfig, new StringDeserializer(), new ByteArrayDeserializer())) {
      TopicPartition decisions = new TopicPartition(topics.decisions().name(), 0);
      consumer.assign(List.of(decisions));
      consumer.seekToBeginning(List.of(decisions));
      consumer.position(decisions);

      Thread sender = new Thread(() -> {
        List<Double> values = new ArrayList<>(dimension);
        try {
          for (int i = 0; i < requests; i++) {
            BanditRound round = environment.nextRound();
            rounds[i] = round;
            values.clear();
            for (double v : round.context()) {
              values.add(v);
            }
            byte[] value = requestSerde.encode(
                DecisionRequest.newBuilder().setRequestId(Integer.toString(i)).setContext(values).build());
            inFlight.acquire();
            sentAt[i] = System.nanoTime();
            producer.send(new ProducerRecord<>(topics.contexts().name(), key, value));
          }
          producer.flush();
        } catch (CheckedProducer.SendFailedException failed) {
          // The reader reports it: producer.throwIfFailed() in its loop.
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }, "bandit-e2e-sender");
      long started = System.nanoTime();
      sender.start();

      int read = 0;
      double regret = 0;
      int optimal = 0;
      Map<Integer, Integer> perArm = new java.util.TreeMap<>();
      long lastProgress = System.nanoTime();
      while (read < requests) {
        var records = consumer.poll(Duration.ofMillis(20));
        long now = System.nanoTime();
        for (ConsumerRecord<String, byte[]> record : records) {
          DecisionResponse decision = decisionSerde.decodeOrThrow(record.value());
          int i = Integer.parseInt(decision.getRequestId());
          latencies[read++] = now - sentAt[i];
          inFlight.release();
          BanditRound round = rounds[i];
          regret += round.regretOf(decision.getArm());
          optimal += round.isOptimal(decision.getArm()) ? 1 : 0;
          perArm.merge(decision.getArm(), 1, Integer::sum);
          byte[] reward = rewardSerde.encode(Reward.newBuilder().setRequestId(decision.getRequestId())
              .setReward(round.observedReward(decision.getArm())).build());
          producer.send(new ProducerRecord<>(topics.rewards().name(), key, reward));
          lastProgress = now;
        }
        producer.throwIfFailed();
        if (now - lastProgress > STALL.toNanos()) {
          throw new IllegalStateException("no decision for " + STALL + " after " + read + " of " + requests);
        }
      }
      long finished = System.nanoTime();
      sender.join(TimeUnit.SECONDS.toMillis(10));
      return new Result(read, finished - started, latencies, regret / read, (double) optimal / read, perArm);
    }
  }

  private static double percentile(long[] sorted, double q) {
    int index = (int) Math.ceil(q * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }

  private static NoiseKey freshKey() {
    byte[] material = new byte[NoiseKey.MINIMUM_BYTES];
    new SecureRandom().nextBytes(material);
    return NoiseKey.ofBytes(material);
  }

  private static void deleteRecursively(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
