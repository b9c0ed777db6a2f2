package org.dpstream.service.kafka;

import java.util.Optional;

/**
 * Where the service's Kafka clients (Kafka Streams, the deciders' producer and consumers) report the
 * failures they meet; the implementation decides which of them stop the service (the command line's: a
 * refused ACL or login, {@code org.dpstream.service.acl.AccessFailures}).
 */
public interface ClientFailures {

  /** Stops nothing: every failure keeps the handling of the client that met it. */
  ClientFailures NONE = new ClientFailures() {
    @Override
    public boolean report(String client, Throwable failure) {
      return false;
    }

    @Override
    public Optional<String> fatal() {
      return Optional.empty();
    }
  };

  /**
   * @param client which client met it, e.g. "Kafka Streams"
   * @return whether the failure stops the service: the caller stops its own work too (no retry, no new thread)
   */
  boolean report(String client, Throwable failure);

  /** Why the service stops, once a reported failure stopped it. */
  Optional<String> fatal();
}
