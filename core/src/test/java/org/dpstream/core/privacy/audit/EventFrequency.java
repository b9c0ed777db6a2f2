package org.dpstream.core.privacy.audit;

/**
 * How many of a set of independent runs landed in the audited event.
 *
 * @param hits runs in the event, 0 <= hits <= runs
 * @param runs runs counted, > 0
 */
public record EventFrequency(int hits, int runs) {

  public EventFrequency {
    if (runs <= 0 || hits < 0 || hits > runs) {
      throw new IllegalArgumentException("need 0 <= hits <= runs and runs > 0: " + hits + "/" + runs);
    }
  }

  /** The empirical probability hits / runs. */
  public double proportion() {
    return (double) hits / runs;
  }

  @Override
  public String toString() {
    return hits + "/" + runs;
  }
}
