package org.dpstream.service.kafka;

import java.time.Duration;
import org.apache.kafka.clients.consumer.Consumer;

/** Stopping a thread that polls a consumer in a loop: the deciders' follower and context decider. */
public final class PollingThreads {

  /** How long a close waits for the loop to leave its poll and close its clients. */
  static final Duration STOP_WAIT = Duration.ofSeconds(10);

  private PollingThreads() {}

  /**
   * Wakes {@code consumer} out of its poll (the loop, which must see its own closed flag first, then leaves) and waits
   * up to {@link #STOP_WAIT} for {@code thread} to end; an interrupt while waiting is kept on the caller's thread.
   */
  public static void stop(Consumer<?, ?> consumer, Thread thread) {
    consumer.wakeup();
    try {
      thread.join(STOP_WAIT.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
