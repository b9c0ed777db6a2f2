package org.dpstream.bench.bandite2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link BrokerTraffic} reads the broker's per-topic meters by their JMX names and reports what was added. */
class BrokerTrafficTest {

  /** The broker's meters expose their count as the attribute {@code Count}, as these stand-ins do. */
  public interface MeterMBean {
    long getCount();
  }

  public static final class Meter implements MeterMBean {
    volatile long count;

    @Override
    public long getCount() {
      return count;
    }
  }

  private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
  private final List<ObjectName> registered = new ArrayList<>();

  @AfterEach
  void unregister() throws JMException {
    for (ObjectName name : registered) {
      server.unregisterMBean(name);
    }
  }

  private Meter meter(String name, String topic) throws JMException {
    Meter meter = new Meter();
    ObjectName objectName = new ObjectName("kafka.server:type=BrokerTopicMetrics,name=" + name
        + (topic == null ? "" : ",topic=" + topic));
    server.registerMBean(meter, objectName);
    registered.add(objectName);
    return meter;
  }

  @Test
  void eachTopicsRecordsAndBytesSinceTheEarlierReadingBusiestFirst() throws Exception {
    Meter releasesIn = meter(BrokerTraffic.MESSAGES, "dp.releases");
    Meter releasesBytes = meter(BrokerTraffic.BYTES, "dp.releases");
    Meter rewardsIn = meter(BrokerTraffic.MESSAGES, "dp.rewards");
    Meter rewardsBytes = meter(BrokerTraffic.BYTES, "dp.rewards");
    Meter idleIn = meter(BrokerTraffic.MESSAGES, "idle");
    Meter idleBytes = meter(BrokerTraffic.BYTES, "idle");
    Meter allIn = meter(BrokerTraffic.MESSAGES, null); // the broker's total, without a topic: not counted twice
    releasesIn.count = 100;
    releasesBytes.count = 64_000;
    rewardsIn.count = 7;
    rewardsBytes.count = 700;
    idleIn.count = 5;
    idleBytes.count = 50;
    allIn.count = 112;
    BrokerTraffic before = BrokerTraffic.read();
    Thread.sleep(200);
    releasesIn.count += 1_000;
    releasesBytes.count += 640_000;
    rewardsIn.count += 2_000;
    rewardsBytes.count += 92_000;
    allIn.count += 3_000;

    String lines = BrokerTraffic.read().since(before, "while the load ran");

    double seconds = seconds(lines, "dp.rewards", 2_000);
    assertEquals(seconds, seconds(lines, "dp.releases", 1_000), 1e-3 * seconds, lines); // both rounded to 1 in 5,000
    assertTrue(seconds >= 0.2 && seconds < 30, lines);
    assertTrue(lines.contains("dp.releases: ") && lines.contains("(640 bytes each)"), lines);
    assertTrue(lines.contains("(46 bytes each)"), lines);
    assertTrue(lines.indexOf("dp.releases") < lines.indexOf("dp.rewards"), "by bytes, busiest first: " + lines);
    assertFalse(lines.contains("idle"), lines);
    Matcher total = Pattern.compile("while the load ran: ([\\d,]+) records/s").matcher(lines);
    assertTrue(total.find(), lines);
    // The rates are printed rounded to whole records/s: the total's own rounding, and the seconds inferred from the
    // rewards' rounded rate (relative error 0.5 / 2,000-per-reading rate).
    double expected = 3_000 / seconds;
    double rewardsRate = 2_000 / seconds;
    assertEquals(expected, Double.parseDouble(total.group(1).replace(",", "")), 0.5 + expected * 0.5 / rewardsRate,
        lines);
  }

  /** The seconds between the readings, from a topic's records per second and the records it was given. */
  private static double seconds(String lines, String topic, long added) {
    Matcher rate = Pattern.compile(Pattern.quote(topic) + ": ([\\d,]+) records/s").matcher(lines);
    assertTrue(rate.find(), lines);
    return added / Double.parseDouble(rate.group(1).replace(",", ""));
  }
}
