package org.dpstream.service.config;

import java.util.Map;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * Checks a static membership id ({@code instanceId}). Kafka Streams appends {@code -<thread index>} for each
 * stream thread's consumer, so one id covers all threads of an instance; every instance of one
 * {@code applicationId} needs its own id, or the two fence each other out of the group.
 */
final class InstanceIds {

  /** What group.instance.id accepts, without surprises in logs and metrics. */
  private static final Pattern VALID = Pattern.compile("[A-Za-z0-9._-]{1,200}");

  private InstanceIds() {}

  static String checked(String instanceId, Map<String, String> kafka) {
    if (instanceId == null) {
      return null;
    }
    if (!VALID.matcher(instanceId).matches()) {
      throw new IllegalArgumentException("instanceId must be 1 to 200 letters, digits, '.', '_' or '-', got \""
          + instanceId + "\"");
    }
    if (kafka.containsKey(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG)) {
      throw new IllegalArgumentException("set instanceId or kafka." + ConsumerConfig.GROUP_INSTANCE_ID_CONFIG
          + ", not both");
    }
    return instanceId;
  }
}
