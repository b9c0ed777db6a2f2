package org.dpstream.core.privacy.audit;

/**
 * An output event S = {statistic > threshold} or S = {statistic < threshold}: the family of events
 * the auditor searches. Strict inequalities on both sides, so that with ties (discrete statistics such
 * as a chosen arm) every upper and lower set of the observed values is still one of these events.
 *
 * @param threshold tau
 * @param tail whether S is the set above or below tau
 */
public record ThresholdEvent(double threshold, Tail tail) {

  /** Which side of the threshold the event is. */
  public enum Tail {
    ABOVE(">"),
    BELOW("<");

    private final String relation;

    Tail(String relation) {
      this.relation = relation;
    }
  }

  public ThresholdEvent {
    if (Double.isNaN(threshold)) {
      throw new IllegalArgumentException("threshold is NaN");
    }
    if (tail == null) {
      throw new IllegalArgumentException("tail is null");
    }
  }

  /** Whether a run with this statistic lands in S. */
  public boolean contains(double statistic) {
    return tail == Tail.ABOVE ? statistic > threshold : statistic < threshold;
  }

  /** E.g. {@code {statistic > 1.0312}}. */
  @Override
  public String toString() {
    return "{statistic " + tail.relation + " " + threshold + "}";
  }
}
