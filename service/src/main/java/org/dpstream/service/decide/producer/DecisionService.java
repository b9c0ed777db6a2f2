package org.dpstream.service.decide.producer;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.dpstream.bandit.Decision;
import org.dpstream.schemas.DecidedRequest;
import org.dpstream.schemas.DecisionPhase;
import org.dpstream.schemas.DecisionResponse;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.schemas.Reward;
import org.dpstream.service.bandit.BanditRejection;
import org.dpstream.service.bandit.Caller;
import org.dpstream.service.config.BanditRegistry;
import org.dpstream.service.decide.Decider;
import org.dpstream.service.decide.DeciderMetrics;
import org.dpstream.service.decide.memory.DecisionMemory;
import org.dpstream.service.decide.memory.Digest128;
import org.dpstream.service.kafka.ClientFailures;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.serde.DecodeResult;
import org.dpstream.service.serde.SchemaSerde;

/**
 * Decides requests from the released parameters and logs every decision, for both the HTTP API and the
 * context decider: the decision with its context to the decision log (learning's input), the decision
 * alone to dp.decisions, rewards to dp.rewards, all with one idempotent producer (acks=all).
 *
 * <p><b>Requests are scoped to their caller.</b> A request is (caller, bandit, request id): two callers using the
 * same request id make two requests, each decided with its own noise, remembered, logged and rewarded on its own,
 * so nothing this service answers one caller depends on another caller's requests ({@link Caller}).
 *
 * <p><b>Same request, same decision.</b> A decision is remembered by (caller, bandit, request id) with a digest
 * of its context for the bandits' longest reward timeout; the request decided again gets the remembered
 * decision. The same request with another context is refused ({@code DUPLICATE_REQUEST}): that tells the caller
 * only about its own earlier request. The memory is restored on start from the decision log, so a request replayed
 * after a restart (the context decider's at-least-once) gets the decision it got before.
 *
 * <p><b>A log write that fails</b> (the producer's delivery timeout passed): {@link #decide}'s future fails
 * (the Kafka path does not commit past it); the HTTP API, which answers once the records are handed to the
 * producer ({@link #decideAndHand}), has answered already. Either way the decision stays remembered with its
 * failed write and is counted; a retry with the same request id gets the same decision and writes it again.
 * Until then it is not learnt, and a reward for it is refused ({@link DecisionNotLogged}).
 */
public final class DecisionService implements AutoCloseable {

  private final Decider decider;
  private final Topics topics;
  private final Producer<String, byte[]> producer;
  private final DecisionMemory memory;
  private final SchemaSerde<DecisionResponse> decisions;
  private final SchemaSerde<DecidedRequest> decided;
  private final SchemaSerde<Reward> rewards;
  private final DeciderMetrics metrics;
  private final ClientFailures failures;

  public DecisionService(Decider decider, Topics topics, Producer<String, byte[]> producer, long memoryMillis,
      int memoryCapacity) {
    this(decider, topics, producer, memoryMillis, memoryCapacity, DeciderMetrics.NONE);
  }

  public DecisionService(Decider decider, Topics topics, Producer<String, byte[]> producer, long memoryMillis,
      int memoryCapacity, DeciderMetrics metrics) {
    this(decider, topics, producer, memoryMillis, memoryCapacity, metrics, ClientFailures.NONE);
  }

  /** A decision service whose producer reports every failed write to {@code failures}. */
  @SuppressWarnings("unchecked")
  public DecisionService(Decider decider, Topics topics, Producer<String, byte[]> producer, long memoryMillis,
      int memoryCapacity, DeciderMetrics metrics, ClientFailures failures) {
    this.metrics = metrics;
    this.failures = failures;
    this.decider = decider;
    this.topics = topics;
    this.producer = producer;
    this.memory = new DecisionMemory(memoryMillis, memoryCapacity);
    this.decisions = (SchemaSerde<DecisionResponse>) topics.decisions().valueSerde();
    this.decided = (SchemaSerde<DecidedRequest>) topics.decided().valueSerde();
    this.rewards = (SchemaSerde<Reward>) topics.rewards().valueSerde();
  }

  /** The producer settings of the decision log: idempotent, acks=all, ordered per partition. */
  static Map<String, Object> producerSettings(Map<String, Object> clientConfig) {
    Map<String, Object> settings = new HashMap<>(clientConfig);
    settings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    settings.put(ProducerConfig.ACKS_CONFIG, "all");
    settings.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
    // Kafka's own default since 4.0 (KIP-1030), stated because this producer used to override it with 0: the HTTP
    // API answers once the records are handed over, so batching costs its answers nothing, and a Kafka-path decision
    // becomes readable at most 5 ms later; fewer, larger produce requests cost the producer and the broker less
    // (docs/benchmarks.md, "Decisions per second over HTTP and Kafka").
    settings.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 5);
    // The producer requires delivery.timeout.ms >= linger.ms + request.timeout.ms; the request timeout gives way so
    // that a write still fails after 30 s (docs/bandit-decider.md).
    settings.putIfAbsent(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 25_000);
    settings.putIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000);
    settings.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "dpstream-decisions");
    return settings;
  }

  public static DecisionService start(Map<String, Object> clientConfig, Decider decider, Topics topics,
      BanditRegistry bandits, int memoryCapacity, DeciderMetrics metrics, ClientFailures failures) {
    long window = bandits.all().stream().mapToLong(b -> b.rewardTimeout().toMillis()).max().orElse(60_000);
    DecisionService service = new DecisionService(decider, topics,
        new KafkaProducer<>(producerSettings(clientConfig), new StringSerializer(), new ByteArraySerializer()),
        window, memoryCapacity, metrics, failures);
    service.restoreMemory(clientConfig, System.currentTimeMillis() - window);
    return service;
  }

  public Decider decider() {
    return decider;
  }

  public DeciderMetrics metrics() {
    return metrics;
  }

  /**
   * Decides (or finds the earlier decision of) one request and logs it.
   *
   * @param timestamp the time of the request (the decision log record's timestamp: learning's stream time)
   * @param alwaysResend send the decision to dp.decisions again when it was already made (the context
   *     decider's replay: its reader may not have it); the HTTP API answers it instead
   * @return completes with the decision once both records are acknowledged
   * @throws Decider.Refused on bad input; nothing is written
   */
  public CompletableFuture<DecisionResponse> decide(String banditId, Caller caller, String requestId,
      List<Double> context, long timestamp, boolean alwaysResend) throws Decider.Refused {
    return decide(banditId, caller, requestId, context, null, timestamp, alwaysResend);
  }

  /**
   * As {@link #decide(String, Caller, String, List, long, boolean)}, for a request naming its person.
   *
   * @param userId the request's person (null: none), logged with the decision for learning to count; a person-level
   *     bandit refuses a request without one ({@code MISSING_USER_ID}), nothing written
   */
  public CompletableFuture<DecisionResponse> decide(String banditId, Caller caller, String requestId,
      List<Double> context, String userId, long timestamp, boolean alwaysResend) throws Decider.Refused {
    Handed handed = decideAndHand(banditId, caller, requestId, context, userId, timestamp, alwaysResend);
    return handed.written().thenApply(done -> handed.response());
  }

  /** A decision and the acknowledgement of its records' writes (which may still be under way). */
  public record Handed(DecisionResponse response, CompletableFuture<Void> written) {}

  /**
   * Decides (or finds the earlier decision of) one request and hands its records to the idempotent producer,
   * without waiting for their acknowledgement (the HTTP API answers at once). If the log write fails later
   * (the producer's delivery timeout), the decision stays remembered with its failed write: it is not learnt,
   * the failure is counted ({@code dpstream_decider_log_write_failures_total}), a reward for it is refused
   * ({@link DecisionNotLogged}), and the request decided again gets the same decision and writes it again.
   *
   * @throws Decider.Refused on bad input; nothing is written
   */
  public Handed decideAndHand(String banditId, Caller caller, String requestId, List<Double> context, long timestamp,
      boolean alwaysResend) throws Decider.Refused {
    return decideAndHand(banditId, caller, requestId, context, null, timestamp, alwaysResend);
  }

  /**
   * As {@link #decideAndHand(String, Caller, String, List, long, boolean)}, for a request naming its person.
   *
   * @param userId the request's person (null or blank: none), logged with the decision of a person-level bandit for
   *     learning to count (an event-level bandit's log carries none)
   * @throws Decider.Refused also when a person-level bandit's request names no person ({@code MISSING_USER_ID})
   */
  public Handed decideAndHand(String banditId, Caller caller, String requestId, List<Double> context, String userId,
      long timestamp, boolean alwaysResend) throws Decider.Refused {
    boolean byUser = decider.bandit(banditId).map(entry -> entry.unit().byUser()).orElse(false);
    // Only a person-level bandit's log carries the person: an event-level one's records keep their bytes.
    String person = !byUser || userId == null || userId.isBlank() ? null : userId;
    if (byUser && person == null) {
      throw new Decider.Refused(BanditRejection.MISSING_USER_ID.name(), "bandit " + banditId + " is person-level:"
          + " a request needs its person's id (userId)");
    }
    Decision decision = decider.decide(banditId, caller, requestId, context);
    // Built outside the memory's lock, and written after it: the lock is shared by every request of the
    // instance, and holding it across an encode and producer.send (which may wait for metadata or buffer
    // space) queued every other request behind this one.
    DecisionResponse response = response(requestId, caller, decision);
    DecisionMemory.Logged candidate = new DecisionMemory.Logged(response.getArm(), response.getModelStep(),
        response.getPhase(), timestamp, Digest128.ofContext(context));
    byte[] logValue = decided.encode(DecidedRequest.newBuilder().setDecision(response).setContext(context)
        .setUserId(person).build());
    DecisionMemory.Found found = memory.rememberIfAbsent(memoryKey(caller, banditId, requestId), candidate,
        logValue, System.currentTimeMillis(), alwaysResend);
    if (found.outcome() == DecisionMemory.Outcome.OTHER_CONTEXT) {
      // The caller's own request of this id was decided for another context: answering would hand that decision,
      // a function of the other context, to this one.
      throw new Decider.Refused(BanditRejection.DUPLICATE_REQUEST.name(),
          "request " + requestId + " was already decided by bandit " + banditId + " for another context");
    }
    if (found.write() != null) {
      makeWrite(banditId, caller, requestId, found.logged(), found.write());
    }
    return new Handed(found.outcome() == DecisionMemory.Outcome.CREATED ? response
        : response(requestId, caller, found.logged()), found.written());
  }

  /** The decision memory's key of a request: its caller's scope, its bandit, its id. */
  private static Digest128 memoryKey(Caller caller, String banditId, String requestId) {
    return Digest128.ofRequest(caller.nameOrNull(), banditId, requestId);
  }

  /** Makes a write the memory asked for, tells the memory how it went, then completes the write's future. */
  private void makeWrite(String banditId, Caller caller, String requestId, DecisionMemory.Logged logged,
      DecisionMemory.Write write) {
    write.after().thenCompose(done -> write(banditId, caller, requestId, logged, write.logValue()))
        .whenComplete((done, failed) -> {
          memory.settle(write, failed == null);
          if (failed == null) {
            write.done().complete(null);
          } else {
            write.done().completeExceptionally(failed);
          }
        });
  }

  /**
   * Decides and encodes a synthetic request as {@link #decideAndHand} does, but remembers and writes nothing
   * (the warm-up, {@code DeciderWarmUp}).
   */
  public void rehearse(String banditId, String requestId, List<Double> context) throws Decider.Refused {
    DecisionResponse response = response(requestId, Caller.DEFAULT, decider.decide(banditId, requestId, context));
    // The memory's keys and digests, computed and dropped: rehearsed like the rest of the path.
    Digest128.ofRequest(banditId, requestId);
    Digest128.ofContext(context);
    decided.encode(DecidedRequest.newBuilder().setDecision(response).setContext(context).build());
    decisions.encode(response);
  }

  /**
   * Fetches the producer's metadata of every topic the deciders write, so that the first decision's send
   * does not wait for it (KafkaProducer.send blocks until it knows the topic's partitions).
   */
  public void fetchMetadata() {
    for (String topic : writtenTopics(topics)) {
      producer.partitionsFor(topic);
    }
  }

  /** Every topic the decision service writes: the decision log, the decisions, the rewards and rejected contexts. */
  public static List<String> writtenTopics(Topics topics) {
    return List.of(topics.decided().name(), topics.decisions().name(), topics.rewards().name(),
        topics.rejected().name());
  }

  /** A reward refused because its decision's log write failed: the decision is not learnt, so neither is the reward. */
  public static final class DecisionNotLogged extends RuntimeException {
    public static final String REASON = "DECISION_NOT_LOGGED";

    DecisionNotLogged(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * Writes a reward to dp.rewards, after the write of its decision if this instance made it (so learning
   * never reads a reward before its decision because of this service). The returned future completes once the
   * reward is acknowledged; it has failed already when the decision's log write had failed (nothing is
   * written, {@link DecisionNotLogged}) or the producer refused the record at once. A failure that comes later
   * is counted: the decision's ({@code dpstream_decider_rewards_refused_total{reason=DECISION_NOT_LOGGED}}) or
   * the reward's own ({@code dpstream_decider_reward_write_failures_total}).
   *
   * @param caller whose request this reward is for: it joins only that caller's decision of the request id
   * @throws Decider.Refused for an unknown bandit, an empty request id, a reward the bandit's link
   *     does not admit
   */
  public CompletableFuture<Void> reward(String banditId, Caller caller, String requestId, double reward,
      long timestamp) throws Decider.Refused {
    BanditRegistry.Entry entry = decider.bandit(banditId).orElseThrow(() -> new Decider.Refused(
        BanditRejection.UNKNOWN_BANDIT.name(), "no bandit '" + banditId + "' is configured"));
    if (requestId == null || requestId.isEmpty()) {
      throw new Decider.Refused(BanditRejection.MISSING_REQUEST_ID.name(), "a reward needs a request id");
    }
    if (!Double.isFinite(reward)) {
      throw new Decider.Refused("NON_FINITE_NUMBER", "reward is not a finite number");
    }
    try {
      entry.spec().requireReward(reward);
    } catch (IllegalArgumentException e) {
      throw new Decider.Refused(BanditRejection.INVALID_REWARD.name(), e.getMessage());
    }
    byte[] value = rewards.encode(Reward.newBuilder().setRequestId(requestId).setReward(reward)
        .setCaller(caller.nameOrNull()).build());
    return memory.written(memoryKey(caller, banditId, requestId)).handle((done, failed) -> failed).thenCompose(failed -> {
      if (failed != null) {
        // Learning never saw the decision: the reward could not be joined (it would be UNKNOWN_REQUEST there).
        metrics.rewardRefused(banditId, DecisionNotLogged.REASON);
        return CompletableFuture.failedFuture(new DecisionNotLogged("request " + requestId + " of bandit "
            + banditId + ": its decision could not be written to the decision log, so it is not learnt; decide"
            + " it again with the same requestId (same decision, written again), then send the reward"));
      }
      return send(new ProducerRecord<>(topics.rewards().name(), null, timestamp, banditId, value))
          .whenComplete((done, writeFailed) -> {
            if (writeFailed != null) {
              // Answered already (the API does not wait for the acknowledgement): the reward is lost to learning,
              // which treats the request as one whose reward never came (the bandit's missingReward).
              metrics.rewardWriteFailed(banditId);
            }
          });
    });
  }

  /** Writes a refused input record to dp.rejected (the context decider's bad input). */
  @SuppressWarnings("unchecked")
  CompletableFuture<Void> reject(String key, RejectedRecord rejected, long timestamp) {
    return send(new ProducerRecord<>(topics.rejected().name(), null, timestamp, key,
        ((SchemaSerde<RejectedRecord>) topics.rejected().valueSerde()).encode(rejected)));
  }

  private static DecisionResponse response(String requestId, Caller caller, Decision decision) {
    return DecisionResponse.newBuilder()
        .setRequestId(requestId)
        .setCaller(caller.nameOrNull())
        .setArm(decision.arm())
        .setPhase(decision.phase() == Decision.Phase.WARM_UP ? DecisionPhase.WARM_UP : DecisionPhase.GREEDY)
        .setModelStep(decision.round())
        .build();
  }

  private static DecisionResponse response(String requestId, Caller caller, DecisionMemory.Logged logged) {
    return DecisionResponse.newBuilder().setRequestId(requestId).setCaller(caller.nameOrNull()).setArm(logged.arm())
        .setPhase(logged.phase()).setModelStep(logged.modelStep()).build();
  }

  /**
   * The log record ({@code logValue}, unless null: the log has it already) first, then the decision: once the
   * decision is readable, learning has (or will have) it.
   */
  private CompletableFuture<Void> write(String banditId, Caller caller, String requestId, DecisionMemory.Logged logged,
      byte[] logValue) {
    CompletableFuture<Void> log = CompletableFuture.completedFuture(null);
    if (logValue != null) {
      log = send(new ProducerRecord<>(topics.decided().name(), null, logged.timestamp(), banditId, logValue));
      log.whenComplete((done, failed) -> {
        if (failed != null) {
          metrics.logWriteFailed(banditId);
        }
      });
    }
    CompletableFuture<Void> decision = send(new ProducerRecord<>(topics.decisions().name(), null, logged.timestamp(),
        banditId, decisions.encode(response(requestId, caller, logged))));
    return CompletableFuture.allOf(log, decision);
  }

  private CompletableFuture<Void> send(ProducerRecord<String, byte[]> record) {
    CompletableFuture<Void> acknowledged = new CompletableFuture<>();
    try {
      producer.send(record, (metadata, exception) -> {
        if (exception == null) {
          acknowledged.complete(null);
        } else {
          failures.report("the deciders' producer", exception);
          acknowledged.completeExceptionally(exception);
        }
      });
    } catch (RuntimeException e) {
      acknowledged.completeExceptionally(e);
    }
    return acknowledged;
  }

  /** Remembers every decision in the decision log since {@code sinceMillis} (all partitions). */
  private void restoreMemory(Map<String, Object> clientConfig, long sinceMillis) {
    Map<String, Object> settings = new HashMap<>(clientConfig);
    settings.remove(ConsumerConfig.GROUP_ID_CONFIG);
    settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    try (Consumer<String, byte[]> consumer =
        new KafkaConsumer<>(settings, new StringDeserializer(), new ByteArrayDeserializer())) {
      String topic = topics.decided().name();
      List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
          .map(info -> new TopicPartition(topic, info.partition())).toList();
      consumer.assign(partitions);
      Map<TopicPartition, Long> query = new HashMap<>();
      partitions.forEach(p -> query.put(p, Math.max(0, sinceMillis)));
      Map<TopicPartition, OffsetAndTimestamp> from = consumer.offsetsForTimes(query);
      Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
      for (TopicPartition p : partitions) {
        OffsetAndTimestamp start = from.get(p);
        consumer.seek(p, start == null ? ends.get(p) : start.offset());
      }
      while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
        for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
          if (record.key() != null
              && decided.decode(record.value()) instanceof DecodeResult.Decoded<DecidedRequest> ok) {
            DecisionResponse response = ok.value().getDecision();
            memory.restore(Digest128.ofRequest(response.getCaller(), record.key(), response.getRequestId()),
                new DecisionMemory.Logged(response.getArm(), response.getModelStep(), response.getPhase(),
                    record.timestamp(), Digest128.ofContext(ok.value().getContext())),
                record.timestamp());
          }
        }
      }
    }
  }

  /** Requests remembered now. */
  public int remembered() {
    return memory.size();
  }

  /** Remembered requests that hold an object: their write is under way or failed. */
  int pendingWrites() {
    return memory.pendingCount();
  }

  @Override
  public void close() {
    producer.close(Duration.ofSeconds(10));
  }
}
