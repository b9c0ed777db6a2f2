package org.dpstream.service.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.streams.KafkaStreams;

/**
 * The Kafka client and Streams metrics ({@code kafka_*}) on the service's registry, in the form Prometheus
 * expects. Micrometer's Kafka binder copies Kafka's names as they are, which {@code promtool check
 * metrics} flags: times in nanoseconds or milliseconds ({@code io_time_ns_total}, {@code start_time_ms}),
 * gauges ending in {@code _count}, metrics without help text. A meter filter can rename but not rescale,
 * so the binder fills a private registry and every meter it adds or removes is mirrored here with:
 * <ul>
 *   <li>a {@code ns} or {@code ms} name part replaced by {@code seconds} and the value scaled to seconds
 *       ({@code kafka_producer_txn_commit_time_seconds_total});
 *   <li>a gauge {@code <thing>_count} renamed {@code <thing>s} ({@code kafka_consumer_connections});
 *   <li>a help text where Kafka gives none.
 * </ul>
 * Every other name is unchanged, so the dashboards' {@code kafka_stream_*} queries keep working.
 */
public final class KafkaClientMetrics implements AutoCloseable {

  private static final Pattern TIME_UNIT = Pattern.compile("(^|\\.)(ns|ms)(\\.|$)");
  private static final String COUNT_SUFFIX = ".count";

  private final MeterRegistry target;
  private final SimpleMeterRegistry source = new SimpleMeterRegistry();
  private final Map<Meter.Id, Meter> mirrors = new ConcurrentHashMap<>();
  private final AutoCloseable binder;

  private KafkaClientMetrics(MeterRegistry target, Function<MeterRegistry, AutoCloseable> bind) {
    this.target = target;
    source.config().onMeterAdded(this::mirror);
    source.config().onMeterRemoved(this::unmirror);
    this.binder = bind.apply(source);
  }

  /** Binds the client metrics of {@code streams} (all its threads' consumers, producers and admin) to {@code target}. */
  public static KafkaClientMetrics bind(KafkaStreams streams, MeterRegistry target) {
    return new KafkaClientMetrics(target, source -> {
      KafkaStreamsMetrics metrics = new KafkaStreamsMetrics(streams);
      metrics.bindTo(source);
      return metrics;
    });
  }

  /** Mirrors whatever {@code bind} registers on the registry it is given; for tests of the renaming. */
  static KafkaClientMetrics mirroring(MeterRegistry target, Function<MeterRegistry, AutoCloseable> bind) {
    return new KafkaClientMetrics(target, bind);
  }

  /** The Prometheus-friendly name of a Kafka client meter, and the factor that converts its value. */
  record Conversion(String name, double scale) {

    static Conversion of(String kafkaName, Meter.Type type) {
      Matcher unit = TIME_UNIT.matcher(kafkaName);
      if (unit.find()) {
        double scale = unit.group(2).equals("ns") ? 1e-9 : 1e-3;
        return new Conversion(unit.replaceFirst("$1seconds$3"), scale);
      }
      if (type == Meter.Type.GAUGE && kafkaName.endsWith(COUNT_SUFFIX)) {
        return new Conversion(kafkaName.substring(0, kafkaName.length() - COUNT_SUFFIX.length()) + "s", 1);
      }
      return new Conversion(kafkaName, 1);
    }
  }

  private void mirror(Meter meter) {
    Meter.Id id = meter.getId();
    Conversion conversion = Conversion.of(id.getName(), id.getType());
    String description = id.getDescription() == null || id.getDescription().isBlank()
        ? "Kafka client metric " + id.getName() + "." : id.getDescription();
    Meter mirrored;
    if (meter instanceof FunctionCounter counter) {
      mirrored = FunctionCounter.builder(conversion.name(), counter, c -> c.count() * conversion.scale())
          .tags(id.getTagsAsIterable()).description(description).register(target);
    } else if (meter instanceof Gauge gauge) {
      mirrored = Gauge.builder(conversion.name(), gauge, g -> g.value() * conversion.scale())
          .tags(id.getTagsAsIterable()).description(description).strongReference(true).register(target);
    } else {
      return; // the Kafka binder registers only gauges and function counters
    }
    mirrors.put(id, mirrored);
  }

  private void unmirror(Meter meter) {
    Meter mirrored = mirrors.remove(meter.getId());
    if (mirrored != null) {
      target.remove(mirrored);
    }
  }

  @Override
  public void close() {
    try {
      binder.close();
    } catch (Exception e) {
      throw new IllegalStateException("closing the Kafka metrics binder failed", e);
    }
    mirrors.values().forEach(target::remove);
    mirrors.clear();
    source.close();
  }
}
