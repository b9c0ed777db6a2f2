package org.dpstream.service.streams;

/**
 * What a Kafka Streams client of the service learns, when bandits are configured: the models or the bandits. Each
 * role is a Kafka Streams instance of its own (same application id, same topology, its own stream threads, consumer,
 * exactly-once producer and state directory), and {@link RoleTaskAssignor} gives each the tasks of its role.
 */
public enum LearningRole {
  MODELS("models"),
  BANDITS("bandits");

  /** The client tag ({@code client.tag.<TAG>}) that carries a client's role to the assignor. */
  public static final String TAG = "dpstream-role";

  private final String label;

  LearningRole(String label) {
    this.label = label;
  }

  /** The tag's value, and the suffix of this role's client and instance ids. */
  public String label() {
    return label;
  }
}
