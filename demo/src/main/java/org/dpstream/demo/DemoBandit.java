package org.dpstream.demo;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.dpstream.bandit.env.BanditRound;
import org.dpstream.bandit.env.SyntheticLinearEnvironment;
import org.dpstream.bandit.linear.DpLinearPolicy;
import org.dpstream.schemas.DecisionRequest;
import org.dpstream.schemas.DecisionResponse;
import org.dpstream.schemas.Reward;
import org.dpstream.service.config.BanditConfig;
import org.dpstream.service.kafka.CheckedProducer;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.serde.DpSerdes;

/**
 * The demo's bandit: a simulated environment (the synthetic linear bandit of Han et al., section 5)
 * on Kafka: it sends contexts to dp.contexts at a steady rate, which the service's deciders decide from the
 * released parameters (the Kafka path, see DemoCluster), reads its decisions from dp.decisions (each request once) and
 * answers each with its reward after a random delay, leaving some unanswered (they expire in the
 * service). Tracks cumulative reward and regret, and plots the regret over time.
 */
final class DemoBandit implements AutoCloseable {

  static final String ID = "demo-bandit";
  static final String PLOT_FILE = "bandit-regret.png";
  static final int DIMENSION = 10;
  static final int ARMS = 3;
  /** Statistics releases over the run: refreshEvery = requests / RELEASES. */
  static final int RELEASES = 100;
  /** Requests in flight (sent, decision not yet read): the simulated users waiting. */
  private static final int WINDOW = 200;
  private static final double NEVER_ANSWERED = 0.03;
  private static final int MAX_DELAY_MS = 300;

  private final Map<String, Object> clientConfig;
  private final Topics topics;
  private final int requests;
  /** Requests offered per second: arrivals at a steady rate, as users come, whatever the decision latency. */
  private final double requestsPerSecond;
  private final SyntheticLinearEnvironment environment;
  private final UniformRandomProvider random;
  private final Map<Integer, BanditRound> rounds = new ConcurrentHashMap<>();
  private final Semaphore inFlight = new Semaphore(WINDOW);
  private final ScheduledExecutorService answers = Executors.newSingleThreadScheduledExecutor();
  private final CheckedProducer<byte[], byte[]> producer;
  private final KafkaConsumer<String, byte[]> consumer;
  private final Thread sender;
  private final Thread reader;
  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong unanswered = new AtomicLong();
  private final List<Double> cumulativeRegret = new ArrayList<>();
  private final List<Double> cumulativeRandomRegret = new ArrayList<>();
  private final Map<Integer, Long> perArm = new HashMap<>();
  private double cumulativeReward;
  /** The released step each decision was made at, in the order the decisions were read. */
  private final List<Long> decidedAtStep = new ArrayList<>();
  private volatile boolean stopping;

  /**
   * The bandit as configured in the service: DP-Linear at eps = 1, horizon = the requests, contexts scaled to
   * the unit sphere (c = 1), unanswered dropped after 5 s; its statistics released {@value #RELEASES} times
   * over the run through the square-root factorization.
   *
   * <p>Why (reasoning on public formulas, not on demo runs): DP-Linear learns once an arm's Gram matrix,
   * about T / (K d) for contexts on the unit sphere, exceeds the ridge weight matched to the release noise
   * ({@code RidgeWeight}, a function of d, T, the refresh period k and the mechanism). At d = 10, K = 3 and
   * the ~20,000 requests the demo gets through in its minute (loaded two cores), the Gaussian tree with k = d
   * has ratio 0.34 (lambda ~1950 against ~670); fewer, larger leaves (k = T / 100) cut the tree's depth
   * (0.56), and the factorization's noise at n = 100 leaves is a third of the tree's: ratio 1.76, above the
   * 1.3 at which the bench's d = 10, K = 3, T = 10^5 setting learns (docs/results.md). With n = 100 a release
   * costs O(n m) = 6,500 noise draws, nothing.
   */
  static BanditConfig config(int requests) {
    long horizon = Math.max(2L * RELEASES, requests);
    int refreshEvery = (int) Math.max(1, horizon / RELEASES);
    return new BanditConfig(ID, DIMENSION, ARMS, null, null, null, null, DemoModel.EPSILON, DemoModel.DELTA,
        horizon, null, 1.2, "5s", "drop", null, 1, DpLinearPolicy.NAME, 1.0, refreshEvery, "factorization");
  }

  /**
   * @param requestsPerSecond the steady rate the environment offers its requests at (open loop, at most
   *     {@value #WINDOW} waiting for their decision)
   */
  DemoBandit(Map<String, Object> clientConfig, Topics topics, int requests, double requestsPerSecond, long seed) {
    if (!(requestsPerSecond > 0)) {
      throw new IllegalArgumentException("requests per second must be positive, got " + requestsPerSecond);
    }
    this.clientConfig = clientConfig;
    this.topics = topics;
    this.requests = requests;
    this.requestsPerSecond = requestsPerSecond;
    this.environment = new SyntheticLinearEnvironment(DIMENSION, ARMS, seed);
    this.random = RandomSource.XO_RO_SHI_RO_128_PP.create(seed + 1); // simulation only
    producer = CheckedProducer.create(clientConfig, Map.of(ProducerConfig.LINGER_MS_CONFIG, 2),
        new ByteArraySerializer(), new ByteArraySerializer());
    Map<String, Object> consumerConfig = new HashMap<>(clientConfig);
    consumerConfig.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    consumerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    consumer = new KafkaConsumer<>(consumerConfig, new StringDeserializer(), new ByteArrayDeserializer());
    sender = new Thread(this::send, "dpstream-demo-bandit-sender");
    reader = new Thread(this::read, "dpstream-demo-bandit-reader");
  }

  void start() {
    List<TopicPartition> partitions = consumer.partitionsFor(topics.decisions().name()).stream()
        .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
    sender.start();
    reader.start();
  }

  private void send() {
    byte[] key = ID.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    long startNanos = System.nanoTime();
    try {
      for (int i = 0; i < requests && !stopping; i++) {
        long wait = startNanos + (long) (i * 1e9 / requestsPerSecond) - System.nanoTime();
        if (wait > 0) {
          TimeUnit.NANOSECONDS.sleep(wait);
        }
        BanditRound round = environment.nextRound();
        List<Double> context = new ArrayList<>(DIMENSION);
        for (double v : round.context()) {
          context.add(v);
        }
        rounds.put(i, round);
        while (!inFlight.tryAcquire(100, TimeUnit.MILLISECONDS)) {
          if (stopping) {
            return;
          }
        }
        producer.send(new ProducerRecord<>(topics.contexts().name(), key, DpSerdes.decisionRequest().encode(
            DecisionRequest.newBuilder().setRequestId("req-" + i).setContext(context).build())));
        sent.incrementAndGet();
      }
    } catch (CheckedProducer.SendFailedException failed) {
      // awaitDecided reports it; sending more after a lost context would only hide the gap.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void read() {
    byte[] key = ID.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    try {
      while (!stopping) {
        for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(100))) {
          DecisionResponse decision = DpSerdes.decisionResponse().decodeOrThrow(record.value());
          int i = Integer.parseInt(decision.getRequestId().substring(4));
          BanditRound round = rounds.remove(i);
          if (round == null) {
            continue; // a decision read twice
          }
          inFlight.release();
          int arm = decision.getArm();
          synchronized (this) {
            double previous = cumulativeRegret.isEmpty() ? 0 : cumulativeRegret.get(cumulativeRegret.size() - 1);
            cumulativeRegret.add(previous + round.regretOf(arm));
            double randomRegret = 0;
            for (int a = 0; a < ARMS; a++) {
              randomRegret += round.regretOf(a) / ARMS;
            }
            double previousRandom = cumulativeRandomRegret.isEmpty()
                ? 0 : cumulativeRandomRegret.get(cumulativeRandomRegret.size() - 1);
            cumulativeRandomRegret.add(previousRandom + randomRegret);
            perArm.merge(arm, 1L, Long::sum);
            decidedAtStep.add(decision.getModelStep());
            cumulativeReward += round.observedReward(arm);
          }
          if (random.nextDouble() < NEVER_ANSWERED) {
            unanswered.incrementAndGet();
            continue;
          }
          byte[] reward = DpSerdes.reward().encode(Reward.newBuilder().setRequestId(decision.getRequestId())
              .setReward(round.observedReward(arm)).build());
          answers.schedule(() -> producer.send(new ProducerRecord<>(topics.rewards().name(), key, reward)),
              random.nextInt(MAX_DELAY_MS + 1), TimeUnit.MILLISECONDS);
        }
      }
    } catch (WakeupException closing) {
      // close()
    }
  }

  synchronized long decided() {
    return cumulativeRegret.size();
  }

  /**
   * Waits until every request is decided, the deadline passes or {@code stop} says so.
   *
   * @throws CheckedProducer.SendFailedException if a context or reward could not be written
   */
  boolean awaitDecided(long deadlineNanos, java.util.function.BooleanSupplier stop) throws InterruptedException {
    while (decided() < requests) {
      producer.throwIfFailed();
      if (System.nanoTime() > deadlineNanos || stop.getAsBoolean()) {
        return false;
      }
      Thread.sleep(50);
    }
    return true;
  }

  /**
   * @param heldRewards rewards that reached learning before their decision and waited for it
   *     ({@code dpstream_bandit_rewards_held_total})
   */
  synchronized void summarise(PrintWriter out, Path plot, long heldRewards) throws IOException {
    long decisions = cumulativeRegret.size();
    double regret = decisions == 0 ? 0 : cumulativeRegret.get(cumulativeRegret.size() - 1);
    double randomRegret = decisions == 0 ? 0 : cumulativeRandomRegret.get(cumulativeRandomRegret.size() - 1);
    out.printf(Locale.ROOT, "Bandit %s (DP-Linear, d=%d, K=%d, eps=%s): %,d requests sent, %,d decided, %,d left"
        + " unanswered (expire after 5 s of stream time)%n", ID, DIMENSION, ARMS, PlainNumbers.of(DemoModel.EPSILON),
        sent.get(), decisions, unanswered.get());
    out.printf(Locale.ROOT, "  cumulative reward %.2f; cumulative regret %.2f (uniformly random arms: %.2f);"
        + " decisions per arm %s%n", cumulativeReward, regret, randomRegret, new java.util.TreeMap<>(perArm));
    out.println("  " + relativeRegret(regret, randomRegret));
    out.println("  " + stepsByDecile(decidedAtStep));
    out.printf(Locale.ROOT, "  rewards that reached learning before their decision and waited for it: %,d%n",
        heldRewards);
    out.println("Bandit regret over time: " + plot.toAbsolutePath().normalize());
    out.flush();
    RegretPlot.write(plot, cumulativeRegret.stream().mapToDouble(Double::doubleValue).toArray(),
        cumulativeRandomRegret.stream().mapToDouble(Double::doubleValue).toArray());
  }

  /**
   * The released step the decisions were made at, at the end of each tenth of the decisions: a learner
   * that keeps up with the deciders shows steps rising through the run, one that lags shows 0 until late.
   */
  static String stepsByDecile(List<Long> steps) {
    if (steps.isEmpty()) {
      return "released step of the decisions: none decided";
    }
    StringBuilder line = new StringBuilder("released step the decisions were made at, after each tenth of them:");
    for (int tenth = 1; tenth <= 10; tenth++) {
      line.append(' ').append(steps.get(Math.max(0, (int) ((long) tenth * steps.size() / 10) - 1)));
    }
    return line.toString();
  }

  /**
   * The bandit's regret as a fraction of uniformly random arms' regret over the same rounds, the
   * number behind "beats random by x %": below 1 it beats random.
   */
  static String relativeRegret(double regret, double randomRegret) {
    if (!(randomRegret > 0)) {
      return "regret / random arms' regret: undefined (random arms had no regret)";
    }
    double ratio = regret / randomRegret;
    double percent = Math.abs(1 - ratio) * 100;
    return String.format(Locale.ROOT, "regret / random arms' regret: %.3f (%.1f %% %s than uniformly random arms)",
        ratio, percent, ratio <= 1 ? "less" : "more");
  }

  @Override
  public void close() {
    stopping = true;
    consumer.wakeup();
    try {
      sender.join(5_000);
      reader.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    answers.shutdownNow();
    producer.close(Duration.ofSeconds(5));
    consumer.close(Duration.ofSeconds(5));
  }
}
