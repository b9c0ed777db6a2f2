package org.dpstream.service.release;

/**
 * A model's (or bandit's) noise generation as its releases state it: the generation (config {@code noiseGeneration},
 * 0 unless the operator declared a new one after the model's state was lost) and what its earlier generations have
 * spent together, by basic composition of their published ledgers. Generation 0 has no earlier spend; its releases
 * carry none of these fields.
 *
 * @param generation the generation, &gt;= 0
 * @param earlierEpsilon the earlier generations' epsilon, added
 * @param earlierDelta the earlier generations' delta, added
 */
public record NoiseGeneration(int generation, double earlierEpsilon, double earlierDelta) {

  /** Generation 0: nothing spent before it. */
  public static final NoiseGeneration FIRST = new NoiseGeneration(0, 0, 0);

  public NoiseGeneration {
    if (generation < 0) {
      throw new IllegalArgumentException("noise generations start at 0, got " + generation);
    }
    if (!(earlierEpsilon >= 0) || !(earlierDelta >= 0) || Double.isInfinite(earlierEpsilon)) {
      throw new IllegalArgumentException("earlier generations spent (" + earlierEpsilon + ", " + earlierDelta + ")");
    }
    if (generation == 0 && (earlierEpsilon != 0 || earlierDelta != 0)) {
      throw new IllegalArgumentException("generation 0 has no earlier generation");
    }
  }
}
