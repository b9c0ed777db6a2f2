package org.dpstream.service.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The counter of records whose processing threw and that went to dp.rejected as PROCESSING_ERROR,
 * exported as {@code dpstream_processing_errors_total{model=...}}: models and bandits count under their
 * id, records failed outside the processors (caught by Kafka Streams' exception handlers) under
 * {@value #OUTSIDE_PROCESSORS}. Any increase deserves an alert: each is a bug or an unforeseen input.
 */
public final class ProcessingErrors {

  public static final String METER = "dpstream.processing.errors";
  /** Tag value for failures Kafka Streams' handlers caught, whose model is not known. */
  public static final String OUTSIDE_PROCESSORS = "_streams";

  private ProcessingErrors() {}

  public static void count(MeterRegistry registry, String model) {
    Counter.builder(METER).tag("model", model)
        .description("records whose processing failed; each went to dp.rejected as PROCESSING_ERROR")
        .register(registry)
        .increment();
  }
}
