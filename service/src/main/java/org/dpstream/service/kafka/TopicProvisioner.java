package org.dpstream.service.kafka;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Creates the service's missing topics on a real cluster, the way Kafka Streams creates its internal
 * ones: idempotent, existing topics left untouched, and safe when several instances start at once (a
 * topic another instance created meanwhile counts as existing).
 */
public final class TopicProvisioner {

  private static final long TIMEOUT_SECONDS = 30;
  private static final String ADMIN_PREFIX = "admin.";
  private static final String CONFIG_PROVIDERS_PREFIX = "config.providers.";

  private TopicProvisioner() {}

  /**
   * The admin client's settings out of the service's {@code kafka:} map: the keys an admin client knows
   * (bootstrap, SASL/SSL, timeouts), with {@code admin.}-prefixed overrides as Kafka Streams reads them, and the
   * settings of the config providers ({@code config.providers.<name>.*}), so that a secret such as
   * {@code sasl.jaas.config} can stay out of the file as {@code ${file:PATH:KEY}}, as Kafka Streams resolves it.
   */
  public static Map<String, Object> adminSettings(Map<String, String> kafka) {
    Set<String> known = AdminClientConfig.configNames();
    Map<String, Object> settings = new HashMap<>();
    kafka.forEach((key, value) -> {
      if (known.contains(key) || key.startsWith(CONFIG_PROVIDERS_PREFIX)) {
        settings.put(key, value);
      }
    });
    kafka.forEach((key, value) -> {
      if (key.startsWith(ADMIN_PREFIX) && known.contains(key.substring(ADMIN_PREFIX.length()))) {
        settings.put(key.substring(ADMIN_PREFIX.length()), value);
      }
    });
    return settings;
  }

  /**
   * Creates those of {@code specs} that do not exist and returns them; with {@code create} false, fails
   * naming the missing ones instead.
   *
   * @param replicationFactor of created topics, -1 for the broker's default
   */
  public static List<TopicSpec> ensure(Admin admin, List<TopicSpec> specs, int replicationFactor, boolean create) {
    try {
      Set<String> existing = admin.listTopics().names().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      List<TopicSpec> missing = specs.stream().filter(spec -> !existing.contains(spec.name())).toList();
      if (missing.isEmpty()) {
        return List.of();
      }
      if (!create) {
        throwIfHidden(admin, missing);
        throw new IllegalStateException("missing topics " + missing.stream().map(TopicSpec::name).toList()
            + ": create them, or set createTopics.enabled: true");
      }
      Optional<Short> replication = replicationFactor < 0 ? Optional.empty() : Optional.of((short) replicationFactor);
      List<NewTopic> newTopics = missing.stream()
          .map(spec -> new NewTopic(spec.name(), Optional.of(spec.partitions()), replication).configs(spec.configs()))
          .toList();
      CreateTopicsResult result = admin.createTopics(newTopics);
      List<TopicSpec> created = new ArrayList<>();
      for (TopicSpec spec : missing) {
        try {
          result.values().get(spec.name()).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
          created.add(spec);
        } catch (ExecutionException e) {
          if (e.getCause() instanceof TopicAuthorizationException) {
            // Kafka's exception names no topic here; this one does, for the message that names the missing ACL.
            throw new TopicAuthorizationException("not authorised to create topic " + spec.name(), Set.of(spec.name()));
          }
          if (!(e.getCause() instanceof TopicExistsException)) {
            throw new IllegalStateException("cannot create topic " + spec.name() + ": " + e.getCause().getMessage()
                + " (create it yourself, or fix createTopics)", e.getCause());
          }
        }
      }
      return created;
    } catch (ExecutionException e) {
      throw new IllegalStateException("cannot list the cluster's topics: " + e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("no answer from Kafka within " + TIMEOUT_SECONDS
          + " s (check kafka.bootstrap.servers and the security settings)", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while checking the topics", e);
    }
  }

  /**
   * Listing shows only the topics the caller may describe: a topic missing from the list may exist but be
   * hidden by the ACLs, which is a different fix than creating it.
   *
   * @throws TopicAuthorizationException naming the topics the caller may not describe
   */
  private static void throwIfHidden(Admin admin, List<TopicSpec> unlisted)
      throws InterruptedException, TimeoutException {
    Set<String> hidden = new TreeSet<>();
    Map<String, KafkaFuture<TopicDescription>> described =
        admin.describeTopics(unlisted.stream().map(TopicSpec::name).toList()).topicNameValues();
    for (var entry : described.entrySet()) {
      try {
        entry.getValue().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        if (e.getCause() instanceof TopicAuthorizationException) {
          hidden.add(entry.getKey());
        }
      }
    }
    if (!hidden.isEmpty()) {
      throw new TopicAuthorizationException("not authorised to describe topics " + hidden, hidden);
    }
  }
}
