package org.dpstream.service.bandit;

/**
 * Whom a bandit request belongs to. Request ids are scoped to their caller: two callers' requests of the same id
 * are two requests, each with its own decision, noise and reward (architecture invariant 10: a caller sees answers
 * to its own requests only).
 *
 * <p>The {@link #DEFAULT} scope is that of records on dp.contexts and dp.rewards that name no caller (the Kafka
 * path's trusted producers share it) and of every API request under {@code authentication: none}. Requests in it
 * are keyed, decided and learnt exactly as before callers existed.
 *
 * @param name the authenticated caller (a token's name, a client certificate's subject) or the {@code caller} a
 *     Kafka record names; null for the default scope
 */
public record Caller(String name) {

  /** The default scope: no caller named. */
  public static final Caller DEFAULT = new Caller(null);

  public Caller {
    if (name != null && (name.isEmpty() || name.indexOf('\u0000') >= 0)) {
      // NUL separates the caller from the request id in the bandit's store keys (RequestKey).
      throw new IllegalArgumentException("a caller must be a non-empty name without NUL");
    }
  }

  /** The caller a record names: null is the default scope. */
  public static Caller ofRecord(String name) {
    return name == null ? DEFAULT : new Caller(name);
  }

  public boolean isDefault() {
    return name == null;
  }

  /** What a record carries: the name, or null for the default scope. */
  public String nameOrNull() {
    return name;
  }

  @Override
  public String toString() {
    return name == null ? "the default scope" : "caller " + name;
  }
}
