package org.dpstream.app.kafka;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;

/**
 * The names of dpstream's topics. The defaults are the {@code dp.*} names of the architecture;
 * a deployment may rename any of them, but no two may coincide.
 */
public record TopicNames(
    String samples,
    String releases,
    String rejected,
    String contexts,
    String decisions,
    String rewards,
    String control) {

  public TopicNames {
    List<String> all = List.of(samples, releases, rejected, contexts, decisions, rewards, control);
    for (String name : all) {
      if (Objects.requireNonNull(name, "topic name").isBlank()) {
        throw new IllegalArgumentException("topic names must not be blank");
      }
    }
    if (new HashSet<>(all).size() != all.size()) {
      throw new IllegalArgumentException("topic names must be distinct: " + all);
    }
  }

  public static TopicNames defaults() {
    return new TopicNames(
        "dp.samples", "dp.releases", "dp.rejected", "dp.contexts", "dp.decisions", "dp.rewards", "dp.control");
  }
}
