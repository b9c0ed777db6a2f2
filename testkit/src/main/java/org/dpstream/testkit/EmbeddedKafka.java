package org.dpstream.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node Kafka cluster inside this JVM: one KRaft node in combined mode (broker and
 * controller), listening on 127.0.0.1 at ports chosen at start, with its logs in a temporary
 * directory that {@link #close()} deletes.
 *
 * <p>It is main code, not a test fixture, because the {@code demo} command and the end-to-end
 * benchmark run on it. It uses the broker's own classes ({@code KafkaRaftServer}, and {@code
 * StorageTool} for the {@code kafka-storage.sh format --standalone} step) rather than Kafka's
 * {@code KafkaClusterTestKit}: the test kit would pull JUnit into the shipped jar. The internal
 * topics are configured for exactly-once with one replica (see {@link SingleNodeKraftConfig}).
 *
 * <p>Contract: {@link #start()} returns only once the broker is unfenced and answers metadata
 * requests, or throws; {@link #close()} returns within the shutdown timeout, even if the broker
 * hangs, and is idempotent. A JVM shutdown hook closes the broker if the caller never does, so an
 * interrupted demo leaves no directory behind.
 *
 * <p>{@link Builder#secured()} starts it as production clusters run: TLS, SASL/SCRAM and client certificates,
 * ACLs enforced (see {@link BrokerSecurity}).
 *
 * <p>Caveat of running in-process: a fatal fault in the controller makes Kafka halt the JVM, as it
 * would a standalone broker. That is acceptable for a demo and tests; a production cluster is
 * never embedded.
 */
public final class EmbeddedKafka implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafka.class);
  private static final int START_ATTEMPTS = 3;
  private static final Duration TOPIC_READY_TIMEOUT = Duration.ofSeconds(30);

  private final TemporaryDirectory directory;
  private final KafkaRaftServer server;
  private final String bootstrapServers;
  private final Duration shutdownTimeout;
  private final Thread shutdownHook;
  /** The secured node's listeners and credentials; null on a plaintext node. */
  private final SecuredAccess secured;
  private boolean closed;

  private EmbeddedKafka(TemporaryDirectory directory, KafkaRaftServer server, String bootstrapServers,
      Duration shutdownTimeout, SecuredAccess secured) {
    this.directory = directory;
    this.server = server;
    this.bootstrapServers = bootstrapServers;
    this.shutdownTimeout = shutdownTimeout;
    this.secured = secured;
    this.shutdownHook = new Thread(this::close, "embedded-kafka-shutdown-hook");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /** Starts a broker with the default settings. */
  public static EmbeddedKafka start() {
    return builder().start();
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * The {@code bootstrap.servers} value for clients, e.g. {@code 127.0.0.1:41234}; on a secured broker,
   * the SASL_SSL listener's (the settings of a {@link #scramUser} include it).
   */
  public String bootstrapServers() {
    return bootstrapServers;
  }

  /**
   * Client settings every producer, consumer and Streams app of this broker needs. On a secured broker
   * they are the administrator's (a super user, authenticated by its certificate): what the test itself
   * uses to set up topics and ACLs and to read the results, never the identity of the client under test.
   */
  public Map<String, Object> clientConfig() {
    return secured == null ? Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers)
        : new HashMap<String, Object>(secured.admin());
  }

  /** Whether clients must authenticate and ACLs authorise them ({@link Builder#secured()}). */
  public boolean isSecured() {
    return secured != null;
  }

  /**
   * A new SCRAM-SHA-512 user, created through the Admin API with a random password; returns once the user
   * can log in. The user may do nothing until {@link #grant ACLs} allow it.
   *
   * @param name the user name ([A-Za-z0-9._-]+); its principal is {@code User:<name>}
   * @throws IllegalStateException on a plaintext broker
   */
  public ClientIdentity scramUser(String name) {
    return securedAccess().scramUser(name);
  }

  /**
   * A new client certificate for {@code CN=<name>}, signed by the broker's CA, for the TLS listener (mTLS);
   * its principal is {@code User:<name>}.
   *
   * @throws IllegalStateException on a plaintext broker
   */
  public ClientIdentity certificateUser(String name) {
    return securedAccess().certificateUser(name);
  }

  /** Creates ACLs and returns once the broker's authorizer applies them. */
  public void grant(Collection<AclBinding> acls) {
    securedAccess().grant(acls);
  }

  /** Waits until the broker's authorizer applies {@code acls}, created by someone else (a tool under test). */
  public void awaitAcls(Collection<AclBinding> acls) {
    securedAccess().awaitAcls(acls);
  }

  /** Deletes ACLs and returns once the broker's authorizer no longer applies them. */
  public void revoke(Collection<AclBinding> acls) {
    securedAccess().revoke(acls);
  }

  private SecuredAccess securedAccess() {
    if (secured == null) {
      throw new IllegalStateException("this broker is not secured: build it with EmbeddedKafka.builder().secured()");
    }
    return secured;
  }

  /** The temporary directory holding the logs; gone after {@link #close()}. */
  Path directory() {
    return directory.path();
  }

  /** A new admin client for this broker (a super user's on a secured broker); the caller closes it. */
  public Admin admin() {
    return Admin.create(clientConfig());
  }

  /**
   * Creates topics and waits until the leader of every partition takes writes, so the next produce
   * succeeds. Each topic needs a partition count; its replication factor is always 1 on this single
   * broker, whatever the topic asks for.
   */
  public void createTopics(NewTopic... topics) {
    createTopics(Arrays.asList(topics));
  }

  /** @see #createTopics(NewTopic...) */
  public void createTopics(Collection<NewTopic> topics) {
    List<NewTopic> newTopics = topics.stream().map(EmbeddedKafka::onOneBroker).toList();
    List<String> names = newTopics.stream().map(NewTopic::name).toList();
    Map<TopicPartition, OffsetSpec> partitions = new HashMap<>();
    for (NewTopic topic : newTopics) {
      for (int p = 0; p < topic.numPartitions(); p++) {
        partitions.put(new TopicPartition(topic.name(), p), OffsetSpec.latest());
      }
    }
    try (Admin admin = admin()) {
      admin.createTopics(newTopics).all().get(30, TimeUnit.SECONDS);
      awaitServing(admin, partitions, names);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("could not create topics " + names, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while creating topics " + names, e);
    }
  }

  /** The topic with replication factor 1; a topic without a partition count is refused. */
  private static NewTopic onOneBroker(NewTopic topic) {
    if (topic.numPartitions() < 1) {
      throw new IllegalArgumentException("topic " + topic.name() + " needs at least 1 partition: " + topic.numPartitions());
    }
    return new NewTopic(topic.name(), topic.numPartitions(), (short) 1).configs(topic.configs());
  }

  /**
   * Waits until every partition's leader answers a ListOffsets request. A leader in the metadata is
   * not enough: the broker publishes a new partition's leader to its metadata cache (what Metadata
   * and DescribeTopics answer from) before its replica manager has made the partition local, and
   * produce requests in between fail with NOT_LEADER_OR_FOLLOWER (EmbeddedKafkaIT shows it).
   * ListOffsets, like Produce, is answered by the partition's local leader, so its success means a
   * produce will be taken.
   */
  private static void awaitServing(Admin admin, Map<TopicPartition, OffsetSpec> partitions, List<String> names)
      throws InterruptedException, ExecutionException, TimeoutException {
    long deadline = System.nanoTime() + TOPIC_READY_TIMEOUT.toNanos();
    while (true) {
      long remainingMillis = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
      if (remainingMillis <= 0) {
        throw new TimeoutException("partitions of " + names + " take no requests after " + TOPIC_READY_TIMEOUT);
      }
      try {
        admin.listOffsets(partitions, new ListOffsetsOptions().timeoutMs((int) remainingMillis))
            .all().get(remainingMillis, TimeUnit.MILLISECONDS);
        return;
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof RetriableException)) {
          throw e;
        }
      }
      Thread.sleep(20);
    }
  }

  /**
   * Stops the broker and deletes its directory. Waits at most the shutdown timeout for Kafka's own
   * shutdown; if that hangs, the directory is deleted anyway and a warning is logged.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    removeShutdownHook();
    boolean stopped = stop(server, shutdownTimeout);
    if (!stopped) {
      LOG.warn("embedded Kafka did not shut down within {}; deleting its directory anyway", shutdownTimeout);
    }
    try {
      directory.close();
    } catch (UncheckedIOException e) {
      LOG.warn("could not delete the embedded Kafka directory {}", directory.path(), e);
    }
  }

  private void removeShutdownHook() {
    if (Thread.currentThread() == shutdownHook) {
      return;
    }
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException alreadyShuttingDown) {
      // The hook is running or about to; close() is idempotent, so there is nothing to undo.
    }
  }

  /** Shuts the server down on a daemon thread so a hung shutdown cannot block the caller. */
  private static boolean stop(KafkaRaftServer server, Duration timeout) {
    Thread stopper = new Thread(() -> {
      server.shutdown();
      server.awaitShutdown();
    }, "embedded-kafka-stopper");
    stopper.setDaemon(true);
    stopper.start();
    try {
      stopper.join(timeout.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return !stopper.isAlive();
  }

  /** Settings of an {@link EmbeddedKafka}; every one has a default. */
  public static final class Builder {
    private final Map<String, String> brokerOverrides = new HashMap<>();
    private Duration startupTimeout = Duration.ofSeconds(60);
    private Duration shutdownTimeout = Duration.ofSeconds(30);
    private int brokerPort;
    private boolean secured;

    private Builder() {}

    /**
     * The port of the client listener (bootstrap servers); 0, the default, picks a free one. A fixed
     * port that is taken fails the start instead of moving elsewhere: clients were told that port.
     */
    public Builder brokerPort(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port must be in [0, 65535]: " + port);
      }
      this.brokerPort = port;
      return this;
    }

    /** Overrides one broker setting of {@link SingleNodeKraftConfig} (listeners excepted). */
    public Builder brokerConfig(String key, String value) {
      brokerOverrides.put(Objects.requireNonNull(key), Objects.requireNonNull(value));
      return this;
    }

    /**
     * A broker as production clusters are: TLS on every listener with a CA generated at start, SCRAM-SHA-512
     * (SASL_SSL, at {@link EmbeddedKafka#bootstrapServers()}) and client certificates (mTLS) for
     * authentication, and KRaft's StandardAuthorizer denying what no ACL allows
     * ({@code allow.everyone.if.no.acl.found=false}). The only super users are the broker itself and the test's
     * administrator ({@link EmbeddedKafka#clientConfig()}, {@link EmbeddedKafka#admin()}); clients under test are
     * made with {@link EmbeddedKafka#scramUser} or {@link EmbeddedKafka#certificateUser} and get what
     * {@link EmbeddedKafka#grant} allows them.
     */
    public Builder secured() {
      this.secured = true;
      return this;
    }

    public Builder startupTimeout(Duration timeout) {
      this.startupTimeout = requirePositive(timeout);
      return this;
    }

    public Builder shutdownTimeout(Duration timeout) {
      this.shutdownTimeout = requirePositive(timeout);
      return this;
    }

    /**
     * Formats a fresh log directory and starts the node. Retries with new ports if a probed port
     * was taken by another process in the meantime.
     */
    public EmbeddedKafka start() {
      long started = System.nanoTime();
      TemporaryDirectory directory = TemporaryDirectory.create("dpstream-kafka-");
      try {
        for (int attempt = 1; ; attempt++) {
          int[] ports = FreePorts.probe(secured ? 3 : 2, brokerPort);
          Properties props = SingleNodeKraftConfig.of(directory.path().resolve("logs"), ports[0], ports[1],
              brokerOverrides);
          BrokerSecurity security = null;
          if (secured) {
            security = BrokerSecurity.create(Files.createDirectories(directory.path().resolve("security")));
            security.configure(props, ports[0], ports[2], ports[1]);
          }
          props.put("server.max.startup.time.ms", Long.toString(startupTimeout.toMillis()));
          format(directory.path(), props);
          KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(props), Time.SYSTEM);
          try {
            server.startup();
          } catch (RuntimeException e) {
            stop(server, shutdownTimeout);
            directory.clear();
            if (isBindFailure(e) && attempt < START_ATTEMPTS) {
              LOG.info("probed port taken before Kafka bound it; retrying with new ports");
              continue;
            }
            throw e;
          }
          String bootstrap = "127.0.0.1:" + ports[0];
          SecuredAccess access = security == null ? null
              : new SecuredAccess(security, bootstrap, "127.0.0.1:" + ports[2]);
          EmbeddedKafka kafka = new EmbeddedKafka(directory, server, bootstrap, shutdownTimeout, access);
          LOG.info("embedded Kafka at {}{} started in {} ms", bootstrap, secured ? " (SASL_SSL, ACLs)" : "",
              TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
          return kafka;
        }
      } catch (IOException e) {
        directory.close();
        throw new UncheckedIOException("could not prepare the embedded Kafka directory", e);
      } catch (RuntimeException | Error e) {
        directory.close();
        throw e;
      }
    }

    private static Duration requirePositive(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("timeout must be positive: " + timeout);
      }
      return timeout;
    }
  }

  /** The requested broker port was taken. */
  public static final class PortInUseException extends IllegalStateException {
    private final int port;

    PortInUseException(int port, Throwable cause) {
      super("port " + port + " is in use", cause);
      this.port = port;
    }

    public int port() {
      return port;
    }
  }

  /**
   * The {@code kafka-storage.sh format --standalone} step: writes meta.properties and the
   * bootstrap checkpoint with this node as the only voter of a dynamic quorum. Kafka's command
   * line is used because its arguments are the documented, stable interface to formatting.
   */
  private static void format(Path directory, Properties props) {
    Path configFile = directory.resolve("server.properties");
    try (OutputStream out = Files.newOutputStream(configFile)) {
      props.store(out, "embedded single-node KRaft cluster");
    } catch (IOException e) {
      throw new UncheckedIOException("could not write " + configFile, e);
    }
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    int exitCode;
    try (PrintStream printStream = new PrintStream(output, true, StandardCharsets.UTF_8)) {
      exitCode = StorageTool.execute(new String[] {
          "format", "--config", configFile.toString(),
          "--cluster-id", Uuid.randomUuid().toString(), "--standalone"}, printStream);
    }
    if (exitCode != 0) {
      throw new IllegalStateException("formatting the KRaft log directory failed (exit code " + exitCode
          + "): " + output.toString(StandardCharsets.UTF_8));
    }
  }

  private static boolean isBindFailure(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof BindException) {
        return true;
      }
    }
    return false;
  }
}
