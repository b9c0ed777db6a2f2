package org.dpstream.bench.banditlearn;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.dpstream.bench.common.BenchBanditOptions;
import org.dpstream.bench.e2e.MachineFacts;
import org.dpstream.core.privacy.random.NoiseKey;
import org.dpstream.schemas.DecidedRequest;
import org.dpstream.schemas.DecisionPhase;
import org.dpstream.schemas.DecisionResponse;
import org.dpstream.schemas.Reward;
import org.dpstream.service.config.DeciderConfig;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.kafka.TopicNames;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.service.serde.SchemaSerde;
import org.dpstream.service.streams.DpstreamService;
import org.dpstream.testkit.EmbeddedKafka;
import org.dpstream.testkit.TemporaryDirectory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code dpstream-bench bandit-learn}: how many rounds per second the learning topology joins, on its own.
 * {@code --rounds} logged decisions (dp.contexts.decided, as the deciders write them) and their rewards are in
 * the (embedded) broker before the service starts; the service then learns them with its default Kafka
 * Streams settings (exactly-once, one stream thread), and the command prints the time to the first joined
 * round and the rounds joined per second from the first to the last. {@code bandit-e2e} shows whether learning
 * keeps up with live traffic; this one measures what it can do with nothing else running in the JVM
 * (docs/bandit-decider.md, "Learning at 2,000 rounds/s").
 *
 * <p>Every decision is logged at released step 0 (the warm-up's step, valid whatever the bandit has learnt), on
 * arm {@code i mod K}; contexts uniform in [-1, 1]^d scaled by 1/sqrt(d), rewards
 * uniform in [0, 1): the learning work per round does not depend on them.
 */
@Command(
    name = "bandit-learn",
    mixinStandardHelpOptions = true,
    description = "Bandit learning throughput on its own: a backlog of logged decisions and rewards in an"
        + " embedded broker, learnt by the service's topology; prints rounds joined per second.")
public final class BanditLearningCommand implements Callable<Integer> {

  private static final String BANDIT = "bench-bandit";

  @Spec CommandSpec spec;

  @Mixin BenchBanditOptions shape; // --d, --K

  @Option(names = "--rounds", defaultValue = "30000", description = "logged decisions, each with its reward"
      + " (default: ${DEFAULT-VALUE})")
  int rounds;

  @Option(names = "--release-every", defaultValue = "1",
      description = "the bandit's releaseEvery, rounds between releases of every arm (default: ${DEFAULT-VALUE})")
  int releaseEvery;

  @Option(names = "--seed", defaultValue = "1", description = "seed of the contexts and rewards (default: ${DEFAULT-VALUE})")
  long seed;

  @Override
  public Integer call() throws Exception {
    if (shape.dimension() < 1 || shape.arms() < 2 || rounds < 1 || releaseEvery < 1) {
      throw new IllegalArgumentException("--d, --rounds, --release-every must be positive, --K >= 2");
    }
    PrintWriter out = spec.commandLine().getOut();
    out.println(MachineFacts.describe());
    out.printf(Locale.ROOT, "bandit-learn: %,d rounds, d = %d, K = %d, releaseEvery %d, 1 partition, 1 stream thread,"
        + " the service's default Kafka Streams settings%n", rounds, shape.dimension(), shape.arms(), releaseEvery);
    out.flush();
    try (TemporaryDirectory state = TemporaryDirectory.create("dpstream-bench-learn-");
        EmbeddedKafka kafka = EmbeddedKafka.start()) {
      Topics topics = Topics.defaults();
      kafka.createTopics(topics.newTopics(1));
      produceBacklog(kafka, topics);
      ServiceConfig config = new ServiceConfig("bench-bandit-learn", TopicNames.defaults(), List.of(), Map.of(
          StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
          StreamsConfig.STATE_DIR_CONFIG, state.path().toString()), 0,
          List.of(shape.bandit(BANDIT, Math.max(rounds, 2L * shape.arms()), "1h", releaseEvery)))
          .withDecider(DeciderConfig.deciders(-1, false)); // learning only: no API, no Kafka path
      SimpleMeterRegistry registry = new SimpleMeterRegistry();
      long start = System.nanoTime();
      try (DpstreamService service = DpstreamService.start(config, NoiseKey.random(), registry)) {
        double joined = 0;
        long first = -1;
        long last = start;
        long deadline = start + 600_000_000_000L;
        while (joined < rounds && System.nanoTime() < deadline) {
          Thread.sleep(20);
          double now = count(registry, "dpstream.bandit.rewards.joined");
          if (now > joined) {
            last = System.nanoTime();
            if (first < 0) {
              first = last;
            }
          }
          joined = now;
        }
        double rejected = count(registry, "dpstream.bandit.rejected");
        double spanSeconds = (last - first) / 1e9;
        out.printf(Locale.ROOT, "first round joined %.2f s after the service started; %,.0f rounds joined in %.2f s"
            + " from the first to the last = %,.0f rounds/s; %,.0f records rejected%n", (first - start) / 1e9, joined,
            spanSeconds, spanSeconds > 0 ? (joined - 1) / spanSeconds : Double.NaN, rejected);
        out.flush();
        return joined >= rounds ? 0 : 1;
      }
    }
  }

  /** Decision i and then its reward, one millisecond apart, in the order the deciders write them. */
  private void produceBacklog(EmbeddedKafka kafka, Topics topics) {
    Map<String, Object> settings = new HashMap<>(kafka.clientConfig());
    settings.put(ProducerConfig.ACKS_CONFIG, "all");
    SchemaSerde<DecidedRequest> decided = DpSerdes.decidedRequest();
    SchemaSerde<Reward> rewards = DpSerdes.reward();
    SplittableRandom random = new SplittableRandom(seed); // simulation only
    long base = System.currentTimeMillis() - 2L * rounds;
    double scale = 1 / Math.sqrt(shape.dimension());
    try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(settings, new StringSerializer(),
        new ByteArraySerializer())) {
      for (int i = 0; i < rounds; i++) {
        List<Double> context = new ArrayList<>(shape.dimension());
        for (int j = 0; j < shape.dimension(); j++) {
          context.add(random.nextDouble(-1, 1) * scale);
        }
        String requestId = "learn-" + i;
        DecidedRequest decision = DecidedRequest.newBuilder()
            .setDecision(DecisionResponse.newBuilder().setRequestId(requestId).setArm(i % shape.arms())
                .setPhase(DecisionPhase.WARM_UP).setModelStep(0).build())
            .setContext(context).build();
        long time = base + 2L * i;
        producer.send(new ProducerRecord<>(topics.decided().name(), 0, time, BANDIT, decided.encode(decision)));
        Reward reward = Reward.newBuilder().setRequestId(requestId).setReward(random.nextDouble()).build();
        producer.send(new ProducerRecord<>(topics.rewards().name(), 0, time + 1, BANDIT, rewards.encode(reward)));
      }
      producer.flush();
    }
  }

  private static double count(SimpleMeterRegistry registry, String name) {
    return registry.find(name).counters().stream().mapToDouble(Counter::count).sum();
  }
}
