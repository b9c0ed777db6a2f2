package org.dpstream.service.config;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Whom a model's guarantee protects ({@code privacyUnit:}): one sample ({@code event}, the default) or one person
 * ({@code {by: user, maxContributions: k}}), whose samples the service bounds to k over the model's life before the
 * estimator sees any, and which every mechanism is accounted for (docs/privacy-layer.md, "Person-level privacy").
 * The person's id is the sample's {@code userId} field, or the Kafka header named by {@code header}.
 *
 * @param maxContributions k, at least 1; 0 means event level
 * @param header null (the {@code userId} field), or the name of the Kafka header holding the id (UTF-8)
 */
public record PrivacyUnit(int maxContributions, String header) {

  /** Event level: today's guarantee, no id read, no count kept. */
  public static final PrivacyUnit EVENT = new PrivacyUnit(0, null);

  /** The largest k: a person's count must fit the store's int, and past this the guarantee is group privacy anyway. */
  public static final int MAX_CONTRIBUTIONS = 1_000_000;

  private static final Set<String> KEYS = Set.of("by", "maxContributions", "header");

  public PrivacyUnit {
    if (maxContributions < 0 || maxContributions > MAX_CONTRIBUTIONS) {
      throw new IllegalArgumentException("privacyUnit.maxContributions must be in [1, " + MAX_CONTRIBUTIONS + "], got "
          + maxContributions);
    }
    if (maxContributions == 0 && header != null) {
      throw new IllegalArgumentException("privacyUnit.header is only for privacyUnit: {by: user, ...}");
    }
    if (header != null && header.isBlank()) {
      throw new IllegalArgumentException("privacyUnit.header must name a Kafka header, got a blank name");
    }
  }

  /** Person level: at most {@code k} samples (rounds) per person, the id read from {@code header} or the record. */
  public static PrivacyUnit byUser(int k, String header) {
    if (k < 1) {
      throw new IllegalArgumentException("privacyUnit.maxContributions must be at least 1, got " + k);
    }
    return new PrivacyUnit(k, header);
  }

  /**
   * Reads the config's value: null or {@code event}, or a map {@code {by: user, maxContributions: k, header: h}}.
   *
   * @throws IllegalArgumentException naming the key at fault
   */
  public static PrivacyUnit parse(Object value) {
    if (value == null) {
      return EVENT;
    }
    if (value instanceof String text) {
      if (text.trim().toLowerCase(Locale.ROOT).equals("event")) {
        return EVENT;
      }
      throw new IllegalArgumentException("privacyUnit must be event or {by: user, maxContributions: k}, got " + text);
    }
    if (!(value instanceof Map<?, ?> map)) {
      throw new IllegalArgumentException("privacyUnit must be event or {by: user, maxContributions: k}, got " + value);
    }
    for (Object key : map.keySet()) {
      if (!KEYS.contains(String.valueOf(key))) {
        throw new IllegalArgumentException("privacyUnit has no key " + key + " (by, maxContributions, header)");
      }
    }
    Object by = map.get("by");
    if (by == null || !String.valueOf(by).trim().toLowerCase(Locale.ROOT).equals("user")) {
      throw new IllegalArgumentException("privacyUnit.by must be user, got " + by);
    }
    Object k = map.get("maxContributions");
    if (!(k instanceof Integer count)) {
      throw new IllegalArgumentException("privacyUnit: {by: user} needs maxContributions, a whole number >= 1, got " + k);
    }
    Object header = map.get("header");
    if (header != null && !(header instanceof String)) {
      throw new IllegalArgumentException("privacyUnit.header must be a header name, got " + header);
    }
    return byUser(count, (String) header);
  }

  /** Whether the unit is a person (a count is kept per person). */
  public boolean byUser() {
    return maxContributions > 0;
  }

  /** k as the mechanisms account it: 1 at event level. */
  public int participations() {
    return byUser() ? maxContributions : 1;
  }

  /** How releases name the unit: {@code event} or {@code user}. */
  public String name() {
    return byUser() ? "user" : "event";
  }

  /** The suffix of a release's {@code algorithm} at person level, e.g. {@code " per user, k=5"}; empty at event level. */
  public String algorithmSuffix() {
    return byUser() ? " per user, k=" + maxContributions : "";
  }
}
