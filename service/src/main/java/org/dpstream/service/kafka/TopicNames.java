package org.dpstream.service.kafka;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;

/**
 * The names of dpstream's topics. The defaults are the {@code dp.*} names of the architecture;
 * a deployment may rename any of them, but no two may coincide. {@code decided} is the decision log:
 * every decision a decider made, with its context (learning's input), {@code <contexts>.decided} unless named.
 */
public record TopicNames(
    String samples,
    String releases,
    String rejected,
    String contexts,
    String decisions,
    String rewards,
    String decided) {

  public TopicNames {
    // The decision log is named after the contexts unless the file names it, so a prefix applies to both.
    decided = decided == null && contexts != null ? contexts + ".decided" : decided;
    List<String> all = List.of(samples, releases, rejected, contexts, decisions, rewards, decided);
    for (String name : all) {
      if (Objects.requireNonNull(name, "topic name").isBlank()) {
        throw new IllegalArgumentException("topic names must not be blank");
      }
    }
    if (new HashSet<>(all).size() != all.size()) {
      throw new IllegalArgumentException("topic names must be distinct: " + all);
    }
  }

  /** The names with the decision log named after the contexts ({@code <contexts>.decided}). */
  public TopicNames(String samples, String releases, String rejected, String contexts, String decisions,
      String rewards) {
    this(samples, releases, rejected, contexts, decisions, rewards, null);
  }

  public static TopicNames defaults() {
    return new TopicNames(
        "dp.samples", "dp.releases", "dp.rejected", "dp.contexts", "dp.decisions", "dp.rewards");
  }
}
