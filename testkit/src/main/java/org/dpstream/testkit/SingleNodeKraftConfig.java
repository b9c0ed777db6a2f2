package org.dpstream.testkit;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

/**
 * The server.properties of a single KRaft node that is both broker and controller, listening on
 * 127.0.0.1 only, with every internal topic sized for one broker.
 */
final class SingleNodeKraftConfig {

  static final int NODE_ID = 1;
  static final String BROKER_LISTENER = "PLAINTEXT";
  static final String CONTROLLER_LISTENER = "CONTROLLER";
  private static final String HOST = "127.0.0.1";

  private SingleNodeKraftConfig() {}

  /**
   * @param logDirectory data and metadata log directory (formatted before the first start)
   * @param brokerPort port of the client listener
   * @param controllerPort port of the KRaft controller listener
   * @param overrides applied last, so callers can change any default below
   */
  static Properties of(Path logDirectory, int brokerPort, int controllerPort, Map<String, String> overrides) {
    Properties props = new Properties();
    String broker = BROKER_LISTENER + "://" + HOST + ":" + brokerPort;
    String controller = CONTROLLER_LISTENER + "://" + HOST + ":" + controllerPort;

    props.put("process.roles", "broker,controller");
    props.put("node.id", Integer.toString(NODE_ID));
    props.put("controller.quorum.bootstrap.servers", HOST + ":" + controllerPort);
    props.put("listeners", broker + "," + controller);
    props.put("advertised.listeners", broker + "," + controller);
    props.put("controller.listener.names", CONTROLLER_LISTENER);
    props.put("inter.broker.listener.name", BROKER_LISTENER);
    props.put("listener.security.protocol.map",
        BROKER_LISTENER + ":PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
    props.put("log.dirs", logDirectory.toString());

    // Exactly-once on one broker: every internal topic must be satisfiable by a single replica,
    // otherwise transactional producers and the group coordinator wait forever for replicas.
    props.put("offsets.topic.replication.factor", "1");
    props.put("transaction.state.log.replication.factor", "1");
    props.put("transaction.state.log.min.isr", "1");
    props.put("share.coordinator.state.topic.replication.factor", "1");
    props.put("share.coordinator.state.topic.min.isr", "1");
    props.put("default.replication.factor", "1");
    props.put("min.insync.replicas", "1");
    // The defaults (50 partitions each) are created lazily on first use and cost seconds on 2 cores.
    props.put("offsets.topic.num.partitions", "1");
    props.put("transaction.state.log.num.partitions", "1");
    props.put("share.coordinator.state.topic.num.partitions", "1");
    // No reason to wait for more members to join a group: there is one application instance.
    props.put("group.initial.rebalance.delay.ms", "0");

    // Topics are created explicitly from the catalogue; a misspelt name should fail, not appear.
    props.put("auto.create.topics.enable", "false");
    props.put("num.partitions", "1");

    // Sized for a laptop or a 2-core CI box rather than a server: fewer threads, and a 4 MiB
    // (instead of 128 MiB) dedupe buffer for the log cleaner that compacts the changelog topics.
    props.put("num.network.threads", "2");
    props.put("num.io.threads", "2");
    props.put("num.recovery.threads.per.data.dir", "1");
    props.put("background.threads", "2");
    props.put("log.cleaner.dedupe.buffer.size", Integer.toString(4 * 1024 * 1024));
    props.put("log.cleaner.threads", "1");

    props.putAll(overrides);
    return props;
  }
}
