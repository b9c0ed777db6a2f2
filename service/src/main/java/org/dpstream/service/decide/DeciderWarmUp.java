package org.dpstream.service.decide;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;
import org.dpstream.schemas.DecisionRequest;
import org.dpstream.service.config.BanditRegistry;
import org.dpstream.service.decide.http.ApiSecurity;
import org.dpstream.service.decide.http.DecisionHttpServer;
import org.dpstream.service.decide.http.MiniHttpClient;
import org.dpstream.service.decide.producer.DecisionService;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.service.serde.SchemaSerde;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the first requests to a fresh instance would otherwise pay for, done before it reports ready
 * (docs/bandit-decider.md, "Warm-up"): the producer's metadata of the topics the deciders write, then the
 * decide path (the rule, the keyed noise, the records' encoding) on synthetic requests that are decided and
 * encoded but never remembered nor written (with contexts of the lists each running path gives: the API's, and
 * the Kafka path's decoded from Avro), then the HTTP API through its own sockets (a new one every
 * {@value #REQUESTS_PER_CONNECTION} requests, so that accepting connections is compiled too), with requests for a
 * bandit id no configuration can hold (it contains NUL, refused by {@code bandits[].id}), which the API
 * refuses with 404 after parsing them like any other. In the first seconds of a bench run at 2,000
 * requests/s the JIT compiler took most of a core while requests queued behind it (docs/benchmarks.md).
 *
 * <p>The API authenticates its callers: the warm-up calls it with a token of its own ({@link
 * ApiSecurity#startWarmUp}), random, held only in memory and refused once the warm-up ends. Under TLS or client
 * certificates the API phase is left out (the decisions are still rehearsed).
 *
 * <p>Privacy: the synthetic decisions draw the keyed noise of request ids starting with NUL, and their results
 * are dropped. A client may send such an id (JSON allows it) and get a decision from the same noise stream; that
 * reveals nothing, since the synthetic decision was never seen and the noise source holds no state, so nothing a
 * client sees depends on the warm-up.
 */
final class DeciderWarmUp {

  private static final Logger LOG = LoggerFactory.getLogger(DeciderWarmUp.class);
  /** A bandit id no configuration can hold (bandit ids may not contain NUL), and the synthetic request ids' prefix. */
  static final String SYNTHETIC = "\u0000warm-up";
  static final String SYNTHETIC_PATH = DecisionHttpServer.PREFIX + "%00warm-up/decide";
  /** Synthetic API requests per connection: the warm-up opens a new connection after so many. */
  static final int REQUESTS_PER_CONNECTION = 100;

  private final DecisionService decisions;
  private final BanditRegistry bandits;
  private final OptionalInt httpPort;
  private final ApiSecurity security;
  private final boolean kafkaPath;
  private final SchemaSerde<DecisionRequest> requests = DpSerdes.decisionRequest();
  private final int decisionsPerBandit;
  private final int httpRequests;
  private final long budgetNanos;
  private final CountDownLatch done = new CountDownLatch(1);

  /** What a warm-up did. */
  record Summary(int rehearsed, int httpAnswered, int httpUnexpected, long millis) {}

  /**
   * @param kafkaPath whether the Kafka path runs: its contexts come decoded from Avro (another List class than the
   *     API's), and the decide path is compiled for the lists it will meet (a warm-up on the API's lists alone
   *     left C2 recompiling the decide path under the Kafka path's first requests)
   * @param decisionsPerBandit synthetic decisions per configured bandit
   * @param security the API's, which gives the warm-up its credential (ignored without an API)
   * @param httpRequests synthetic requests through the API (if it is served)
   * @param budgetMillis time after which each phase stops early (a slow machine gets ready anyway)
   */
  DeciderWarmUp(DecisionService decisions, BanditRegistry bandits, OptionalInt httpPort, ApiSecurity security,
      boolean kafkaPath, int decisionsPerBandit, int httpRequests, long budgetMillis) {
    this.decisions = decisions;
    this.bandits = bandits;
    this.httpPort = httpPort;
    this.security = security;
    this.kafkaPath = kafkaPath;
    this.decisionsPerBandit = decisionsPerBandit;
    this.httpRequests = httpRequests;
    this.budgetNanos = budgetMillis * 1_000_000L;
  }

  /** Whether the warm-up has finished (successfully or not: it never keeps an instance from serving). */
  boolean done() {
    return done.getCount() == 0;
  }

  /** Runs the warm-up on a daemon thread. */
  DeciderWarmUp startInBackground() {
    Thread thread = new Thread(this::run, "dpstream-decider-warm-up");
    thread.setDaemon(true);
    thread.start();
    return this;
  }

  Summary run() {
    long began = System.nanoTime();
    int rehearsed = 0;
    int answered = 0;
    int unexpected = 0;
    try {
      decisions.fetchMetadata();
      rehearsed = rehearse();
      String token = httpPort.isPresent() ? security.startWarmUp() : null;
      if (token != null) {
        int[] counts = throughTheApi(httpPort.getAsInt(), token.isEmpty() ? null : "Bearer " + token);
        answered = counts[0];
        unexpected = counts[1];
      }
    } catch (Exception e) {
      LOG.warn("deciders' warm-up stopped early ({}); serving anyway", e.toString());
    } finally {
      if (httpPort.isPresent()) {
        security.endWarmUp();
      }
      collectStartUpGarbage();
      done.countDown();
    }
    Summary summary = new Summary(rehearsed, answered, unexpected, (System.nanoTime() - began) / 1_000_000);
    LOG.info("deciders warmed up in {} ms: {} synthetic decisions, {} synthetic API requests (never written)",
        summary.millis(), summary.rehearsed(), summary.httpAnswered());
    return summary;
  }

  /**
   * One full collection before the instance reports ready: what start-up and the warm-up left alive (the broker's
   * and Kafka Streams' structures when they share the JVM, the compiled warm-up's leftovers) is moved to the old
   * generation at once, before any request waits, instead of being copied from survivor space to survivor space by
   * the young collections of the first seconds of load (their pauses were 13-20 ms there against 8-10 ms later;
   * with this call the slowest decision of a bench run took 26 and 35 ms in two runs, against 44 to 95 ms in three
   * without, docs/benchmarks.md, "What the young collections copy"). Nothing is served yet, so the pause costs no request.
   * {@code -XX:+DisableExplicitGC} turns it off.
   */
  private static void collectStartUpGarbage() {
    System.gc();
  }

  private int rehearse() throws Decider.Refused {
    long deadline = System.nanoTime() + budgetNanos;
    int count = 0;
    for (BanditRegistry.Entry entry : bandits.all()) {
      String id = entry.spec().banditId();
      int d = entry.spec().dimension();
      List<Double> context = new ArrayList<>(d);
      for (int i = 0; i < decisionsPerBandit && System.nanoTime() < deadline; i++) {
        context.clear();
        for (int j = 0; j < d; j++) {
          context.add(syntheticValue(i, j));
        }
        boolean asTheKafkaPath = kafkaPath && (httpPort.isEmpty() || i % 2 == 1);
        decisions.rehearse(id, SYNTHETIC + i, asTheKafkaPath ? decodedAsTheKafkaPath(i, context) : context);
        count++;
      }
    }
    return count;
  }

  /** The context as the Kafka path gets it: a DecisionRequest encoded and decoded (the decoder warms up too). */
  private List<Double> decodedAsTheKafkaPath(int i, List<Double> context) {
    byte[] encoded = requests.encode(
        DecisionRequest.newBuilder().setRequestId(SYNTHETIC + i).setContext(context).build());
    return requests.decodeOrThrow(encoded).getContext();
  }

  /** {answered with 404 as expected, answered otherwise}. */
  private int[] throughTheApi(int port, String authorization) throws IOException {
    int d = bandits.all().isEmpty() ? 1 : bandits.all().iterator().next().spec().dimension();
    long deadline = System.nanoTime() + budgetNanos;
    int answered = 0;
    int unexpected = 0;
    MiniHttpClient client = null;
    try {
      for (int i = 0; i < httpRequests && System.nanoTime() < deadline; i++) {
        if (i % REQUESTS_PER_CONNECTION == 0) {
          // A new connection now and then: accepting and registering connections is compiled with the rest
          // (with one connection, the clients' first connections after /ready deoptimised the compiled request
          // path for seconds), and the connections spread over all of the API's event loops.
          if (client != null) {
            client.close();
          }
          client = new MiniHttpClient(port, authorization);
        }
        StringBuilder body = new StringBuilder(24 * d + 40).append("{\"requestId\":\"warm-up-").append(i)
            .append("\",\"context\":[");
        for (int j = 0; j < d; j++) {
          body.append(j == 0 ? "" : ",").append(syntheticValue(i, j));
        }
        MiniHttpClient.Response response =
            client.post(SYNTHETIC_PATH, body.append("]}").toString().getBytes(StandardCharsets.UTF_8));
        if (response.status() == 404) {
          answered++;
        } else {
          unexpected++;
        }
      }
    } finally {
      if (client != null) {
        client.close();
      }
    }
    if (unexpected > 0) {
      LOG.warn(String.format(Locale.ROOT, "deciders' warm-up: %d of %d synthetic API requests were not refused"
          + " with 404", unexpected, answered + unexpected));
    }
    return new int[] {answered, unexpected};
  }

  /** A value in [-1, 1] with all its digits (as a client's doubles), varying with the request and coordinate. */
  static double syntheticValue(int request, int coordinate) {
    return Math.sin(request * 0.7 + coordinate * 1.3);
  }
}
