package org.dpstream.service.topology;

import org.apache.kafka.streams.errors.TaskCorruptedException;
import org.apache.kafka.streams.errors.TaskMigratedException;
import org.apache.kafka.streams.errors.internals.FailedProcessingException;

/**
 * Runs one input record's processing so that no record can stop the service (ARCHITECTURE.md 4.9): if
 * it throws, the processor's failure handler drops whatever live state the record may have half-mutated,
 * counts the error and sends the record to dp.rejected with reason {@value #REASON} and a message naming
 * only the exception's class (an exception message may quote the record's data, which must not reach
 * logs or the rejected topic's message field; the original bytes are in the rejected record anyway).
 *
 * <p>Kafka Streams' own control-flow exceptions (a migrated or corrupted task, a failure a downstream
 * node's handler already decided to fail on) propagate untouched, as Streams' processor nodes let them
 * through their processing exception handler: swallowing them would keep a fenced task running.
 * Errors ({@link OutOfMemoryError} and the like) propagate too: they are not the record's fault.
 */
public final class ProcessingErrorGuard {

  /** The reason code of a record whose processing threw; shared by models, bandits and the backstop handler. */
  public static final String REASON = SampleRejection.PROCESSING_ERROR.name();

  /** What a processor does when a record's processing threw. */
  @FunctionalInterface
  public interface FailureHandler {
    /**
     * Drops the live state the record touched, counts the error and forwards one rejection.
     *
     * @param message names the exception's class, never its message
     */
    void failed(String message);
  }

  private ProcessingErrorGuard() {}

  /** Runs {@code processing}; if it throws a non-control-flow exception, calls {@code onFailure} once. */
  public static void run(Runnable processing, FailureHandler onFailure) {
    try {
      processing.run();
    } catch (TaskMigratedException | TaskCorruptedException | FailedProcessingException e) {
      throw e;
    } catch (RuntimeException e) {
      onFailure.failed(message(e));
    }
  }

  /** The rejection message of an exception: its class, and its cause's class if it wraps one. */
  public static String message(Throwable e) {
    Throwable cause = e.getCause();
    return "processing failed with " + e.getClass().getName()
        + (cause == null || cause == e ? "" : " caused by " + cause.getClass().getName());
  }
}
