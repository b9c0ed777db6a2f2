package org.dpstream.service.metrics;

import java.util.Set;
import java.util.TreeSet;

/** The metric families of a Prometheus text exposition, as {@link MetricCatalog} names them. */
public final class ScrapedFamilies {

  private ScrapedFamilies() {}

  /** The family of every sample line: its name, or a catalogued histogram's for _bucket, _count, _sum, _max. */
  public static Set<String> of(String scrape) {
    Set<String> catalogued = new TreeSet<>(MetricCatalog.names(MetricCatalog.PUBLIC));
    catalogued.addAll(MetricCatalog.names(MetricCatalog.RAW));
    Set<String> families = new TreeSet<>();
    scrape.lines().filter(line -> !line.startsWith("#") && !line.isBlank())
        .map(line -> line.split("[{ ]", 2)[0])
        .forEach(sample -> families.add(MetricCatalog.familyOfSample(sample, catalogued)));
    return families;
  }

  /** The families of {@code scrape} that are not public. */
  public static Set<String> notPublic(String scrape) {
    Set<String> raw = new TreeSet<>(of(scrape));
    raw.removeIf(MetricCatalog::isPublic);
    return raw;
  }

  /** Sample lines of {@code scrape}: its series. */
  public static long series(String scrape) {
    return scrape.lines().filter(line -> !line.startsWith("#") && !line.isBlank()).count();
  }
}
