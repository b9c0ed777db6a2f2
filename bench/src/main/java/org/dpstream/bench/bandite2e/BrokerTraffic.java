package org.dpstream.bench.bandite2e;

import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * What the embedded broker in this JVM has taken in, per topic: its own meters ({@code BrokerTopicMetrics}'
 * {@code MessagesInPerSec} and {@code BytesInPerSec}, read through the platform MBean server, where the broker
 * registers them). Two readings give the records and bytes per second each topic took in between, so the bench can
 * say what the broker stored for the decisions and for learning while the load ran.
 */
final class BrokerTraffic {

  static final String MESSAGES = "MessagesInPerSec";
  static final String BYTES = "BytesInPerSec";

  /** Per topic, its two counts: records and bytes taken in since the broker started. */
  private final Map<String, long[]> counts;
  private final long readAt;

  private BrokerTraffic(Map<String, long[]> counts, long readAt) {
    this.counts = counts;
    this.readAt = readAt;
  }

  /** The broker's counts now (none if no broker runs in this JVM). */
  static BrokerTraffic read() {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    Map<String, long[]> counts = new TreeMap<>();
    try {
      for (int kind = 0; kind < 2; kind++) {
        ObjectName pattern = new ObjectName("kafka.server:type=BrokerTopicMetrics,name="
            + (kind == 0 ? MESSAGES : BYTES) + ",topic=*");
        for (ObjectName meter : server.queryNames(pattern, null)) {
          long count = ((Number) server.getAttribute(meter, "Count")).longValue();
          counts.computeIfAbsent(meter.getKeyProperty("topic"), topic -> new long[2])[kind] = count;
        }
      }
    } catch (JMException e) {
      throw new IllegalStateException("cannot read the broker's meters", e);
    }
    return new BrokerTraffic(counts, System.nanoTime());
  }

  /**
   * Lines saying what the broker took in per second since {@code earlier} ({@code window} says when that was): the
   * total, then each topic, the busiest first; topics that took nothing are left out.
   */
  String since(BrokerTraffic earlier, String window) {
    double seconds = (readAt - earlier.readAt) / 1e9;
    Map<String, long[]> added = new TreeMap<>();
    long records = 0;
    long bytes = 0;
    for (Map.Entry<String, long[]> topic : counts.entrySet()) {
      long[] before = earlier.counts.getOrDefault(topic.getKey(), new long[2]);
      long[] delta = {topic.getValue()[0] - before[0], topic.getValue()[1] - before[1]};
      if (delta[0] > 0) {
        added.put(topic.getKey(), delta);
        records += delta[0];
        bytes += delta[1];
      }
    }
    StringBuilder lines = new StringBuilder(String.format(Locale.ROOT,
        "broker, %s: %,.0f records/s, %.1f MB/s taken in", window, records / seconds, bytes / seconds / 1e6));
    added.entrySet().stream()
        .sorted((a, b) -> Long.compare(b.getValue()[1], a.getValue()[1]))
        .forEach(topic -> lines.append(String.format(Locale.ROOT, "%n  %s: %,.0f records/s, %.2f MB/s (%,d bytes each)",
            topic.getKey(), topic.getValue()[0] / seconds, topic.getValue()[1] / seconds / 1e6,
            topic.getValue()[1] / topic.getValue()[0])));
    return lines.toString();
  }
}
