package org.dpstream.service.dda;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.RecordMetadata;

/** Waits for a produce to be acknowledged; a node must not go on before its writes are durable. */
final class Acknowledgements {

  /** Longer than any delivery timeout the nodes configure, so a slow broker fails the send, not this wait. */
  private static final long TIMEOUT_SECONDS = 300;

  private Acknowledgements() {}

  /**
   * @param what the write, for the message, e.g. "node 3's message of round 17"
   * @throws IllegalStateException if the write failed, timed out or the wait was interrupted
   */
  static RecordMetadata await(Future<RecordMetadata> send, String what) {
    try {
      return send.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("could not write " + what, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while writing " + what, e);
    }
  }
}
