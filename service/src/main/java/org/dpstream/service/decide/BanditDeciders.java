package org.dpstream.service.decide;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.apache.kafka.clients.CommonClientConfigs;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.service.config.BanditRegistry;
import org.dpstream.service.config.DeciderConfig;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.decide.follower.ReleaseFollower;
import org.dpstream.service.decide.follower.ReleasedBandits;
import org.dpstream.service.decide.http.ApiSecurity;
import org.dpstream.service.decide.http.DecisionHttpServer;
import org.dpstream.service.decide.producer.ContextDecider;
import org.dpstream.service.decide.producer.DecisionService;
import org.dpstream.service.kafka.ClientFailures;
import org.dpstream.service.kafka.TopicProvisioner;
import org.dpstream.service.kafka.Topics;

/**
 * An instance's deciders: the follower of dp.releases, the decision service and its log, the HTTP API and
 * the context decider, started together and closed in reverse order.
 */
public final class BanditDeciders implements AutoCloseable {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(BanditDeciders.class);

  private final ReleaseFollower follower;
  private final DecisionService decisions;
  private final DecisionHttpServer http;
  private final ContextDecider contexts;
  private final DeciderWarmUp warmUp;

  private BanditDeciders(ReleaseFollower follower, DecisionService decisions, DecisionHttpServer http,
      ContextDecider contexts, DeciderWarmUp warmUp) {
    this.follower = follower;
    this.decisions = decisions;
    this.http = http;
    this.contexts = contexts;
    this.warmUp = warmUp;
  }

  /** Synthetic decisions per bandit and synthetic API requests of the warm-up, and each phase's time budget. */
  static final int WARM_UP_DECISIONS = 20_000;
  static final int WARM_UP_HTTP_REQUESTS = 10_000;
  static final long WARM_UP_BUDGET_MILLIS = 10_000;

  /** How long a starting instance waits to have read the existing releases before it serves anyway. */
  static final Duration CATCH_UP = Duration.ofMinutes(2);

  /**
   * Starts the deciders of {@code config}'s bandits: follows dp.releases, restores the decision memory from
   * the decision log, waits until the releases committed before the start have been read (at most
   * {@link #CATCH_UP}; a restarted instance then decides from the last released parameters, not from the
   * initial ones), then serves the API and the contexts.
   */
  public static BanditDeciders start(ServiceConfig config, Topics topics, KeyedNoiseSource noise) {
    return start(config, topics, noise, DeciderMetrics.NONE);
  }

  /** As {@link #start(ServiceConfig, Topics, KeyedNoiseSource)}, recording {@link DeciderMetrics}. */
  public static BanditDeciders start(ServiceConfig config, Topics topics, KeyedNoiseSource noise,
      DeciderMetrics metrics) {
    return start(config, topics, noise, metrics,
        config.decider().servesApi() ? ApiSecurity.of(config.decider()) : null, ClientFailures.NONE);
  }

  /**
   * As {@link #start(ServiceConfig, Topics, KeyedNoiseSource, DeciderMetrics)}, with the API's security resolved
   * already (null when no API is served); every client of the deciders reports its failures to {@code failures},
   * and the start stops waiting for the releases once one of them stops the service.
   */
  public static BanditDeciders start(ServiceConfig config, Topics topics, KeyedNoiseSource noise,
      DeciderMetrics metrics, ApiSecurity apiSecurity, ClientFailures failures) {
    DeciderConfig settings = config.decider();
    if (settings.servesApi() && apiSecurity == null) {
      throw new IllegalArgumentException("the decision API needs its security (decider.authentication)");
    }
    BanditRegistry bandits = config.banditRegistry();
    Map<String, Object> client = TopicProvisioner.adminSettings(config.kafka());
    client.remove(CommonClientConfigs.CLIENT_ID_CONFIG);
    ReleasedBandits released = new ReleasedBandits();
    ReleaseFollower follower = ReleaseFollower.start(client, topics.releases().name(), bandits, released, failures);
    metrics.follow(bandits, released);
    List<DeciderMetrics.Path> paths = new ArrayList<>();
    if (settings.httpPort() >= 0) {
      paths.add(DeciderMetrics.Path.HTTP);
    }
    if (settings.contexts()) {
      paths.add(DeciderMetrics.Path.KAFKA);
    }
    metrics.serve(bandits, paths);
    DecisionService decisions;
    try {
      decisions = DecisionService.start(client, new Decider(bandits, released, noise), topics, bandits,
          settings.memory(), metrics, failures);
    } catch (RuntimeException e) {
      follower.close();
      throw e;
    }
    try {
      if (!follower.awaitCaughtUp(CATCH_UP) && failures.fatal().isEmpty()) {
        LOG.warn("the releases on {} were not all read within {}; deciding from those read so far",
            topics.releases().name(), CATCH_UP);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (failures.fatal().isPresent()) {
      // The follower was refused: deciding from the initial parameters would serve a service that is stopping.
      follower.close();
      decisions.close();
      throw new IllegalStateException(failures.fatal().get());
    }
    DecisionHttpServer http = null;
    try {
      if (settings.httpPort() >= 0) {
        http = DecisionHttpServer.start(decisions, apiSecurity, settings.httpAddress(), settings.httpPort(),
            settings.httpThreads());
      }
    } catch (IOException e) {
      follower.close();
      decisions.close();
      throw new UncheckedIOException("decider.httpAddress " + (settings.httpAddress() == null ? "(every interface)"
          : settings.httpAddress()) + ", decider.httpPort " + settings.httpPort() + ": " + e.getMessage(), e);
    }
    ContextDecider contexts = settings.contexts()
        ? ContextDecider.start(client, ContextDecider.groupId(config.applicationId()), topics.contexts().name(), decisions,
            failures)
        : null;
    // Ready (/ready) only once warmed up: the first requests no longer meet the JIT compiler and cold metadata.
    DeciderWarmUp warmUp = new DeciderWarmUp(decisions, bandits,
        http == null ? OptionalInt.empty() : OptionalInt.of(http.port()), apiSecurity, contexts != null,
        WARM_UP_DECISIONS,
        WARM_UP_HTTP_REQUESTS,
        WARM_UP_BUDGET_MILLIS).startInBackground();
    return new BanditDeciders(follower, decisions, http, contexts, warmUp);
  }

  /** Waits until the releases committed before the start have been read. */
  public boolean awaitCaughtUp(Duration timeout) throws InterruptedException {
    return follower.awaitCaughtUp(timeout);
  }

  /** The port of the decision API, if it is served. */
  public OptionalInt httpPort() {
    return http == null ? OptionalInt.empty() : OptionalInt.of(http.port());
  }

  /** The decision service (for tools in the same JVM, such as the demo). */
  public DecisionService decisions() {
    return decisions;
  }

  /** Whether the follower and the context decider are still running. */
  public boolean healthy() {
    return follower.isAlive() && (contexts == null || contexts.isAlive());
  }

  /**
   * Why the deciders are not ready, empty when they are: ready once the follower has read every release
   * committed when it started (for every configured bandit), the warm-up has finished and the context decider
   * has joined its consumer group, and while the follower and the context decider run.
   */
  public java.util.List<String> readinessProblems() {
    List<String> problems = readinessProblems(follower.isCaughtUp(), follower.isAlive(),
        contexts == null || contexts.isAlive(), warmUp.done());
    if (contexts != null && !contexts.hasJoined()) {
      problems.add(NOT_JOINED);
    }
    return problems;
  }

  static final String NOT_JOINED = "deciders: the context decider (Kafka path) has not joined its consumer group yet";

  static java.util.List<String> readinessProblems(boolean caughtUp, boolean following, boolean deciding,
      boolean warmedUp) {
    java.util.List<String> problems = new java.util.ArrayList<>();
    if (!warmedUp) {
      problems.add("deciders: warming up (synthetic decisions and API requests, never written)");
    }
    if (!caughtUp) {
      problems.add("deciders: the releases committed before the start are not all read yet");
    }
    if (!following) {
      problems.add("deciders: the release follower stopped (decisions come from the last release read)");
    }
    if (!deciding) {
      problems.add("deciders: the context decider (Kafka path) stopped");
    }
    return problems;
  }

  @Override
  public void close() {
    if (http != null) {
      http.close();
    }
    if (contexts != null) {
      contexts.close();
    }
    decisions.close();
    follower.close();
  }
}
