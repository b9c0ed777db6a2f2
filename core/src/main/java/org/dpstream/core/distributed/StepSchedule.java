package org.dpstream.core.distributed;

/**
 * The parameter sequences a_t (weight of round t's subgradient, also of the output average) and gamma_t
 * (weight of the prox-function) of Algorithm 1, with A_t = sum_{tau &lt;= t} a_tau and A_0 = gamma_0 = 0.
 *
 * <ul>
 *   <li>{@link #stronglyConvex}: a_t = t, A_t = t (t + 1) / 2 and a constant gamma_t = gamma. The theory
 *       (Corollaries 3.2 and 3.5) takes gamma = 0, which needs mu &gt; 0; the paper's l2 experiments take
 *       gamma = 20 (Section 5.2).
 *   <li>{@link #generalConvex}: a_t = 1, A_t = t and gamma_t = gamma sqrt(t) (Corollaries 3.4 and 3.6;
 *       the l1 experiments take gamma = 0.01).
 * </ul>
 * The effective step of round t is a_t / (mu iota A_t + gamma_t). Immutable.
 *
 * @param kind which family
 * @param gamma the constant of gamma_t, &gt;= 0 (and &gt; 0 for the general convex family)
 */
public record StepSchedule(Kind kind, double gamma) {

  /** The two families of the paper. */
  public enum Kind { STRONGLY_CONVEX, GENERAL_CONVEX }

  public StepSchedule {
    java.util.Objects.requireNonNull(kind, "kind");
    if (!(gamma >= 0) || Double.isInfinite(gamma)) {
      throw new IllegalArgumentException("gamma must be finite and >= 0: " + gamma);
    }
    if (kind == Kind.GENERAL_CONVEX && gamma == 0) {
      throw new IllegalArgumentException("the general convex schedule needs gamma > 0 (gamma_t = gamma sqrt(t))");
    }
  }

  /** a_t = t, gamma_t = gamma (0 in the theory, 20 in the paper's l2 experiments). */
  public static StepSchedule stronglyConvex(double gamma) {
    return new StepSchedule(Kind.STRONGLY_CONVEX, gamma);
  }

  /** a_t = 1, gamma_t = gamma sqrt(t). */
  public static StepSchedule generalConvex(double gamma) {
    return new StepSchedule(Kind.GENERAL_CONVEX, gamma);
  }

  /** a_t, for t &gt;= 1. */
  public double weight(long t) {
    requireRound(t);
    return kind == Kind.STRONGLY_CONVEX ? t : 1;
  }

  /** A_t, for t &gt;= 0. */
  public double cumulativeWeight(long t) {
    if (t < 0) {
      throw new IllegalArgumentException("t must be >= 0: " + t);
    }
    return kind == Kind.STRONGLY_CONVEX ? 0.5 * t * (t + 1.0) : t;
  }

  /** gamma_t, for t &gt;= 0 (gamma_0 = 0). */
  public double proxWeight(long t) {
    if (t < 0) {
      throw new IllegalArgumentException("t must be >= 0: " + t);
    }
    if (t == 0) {
      return 0;
    }
    return kind == Kind.STRONGLY_CONVEX ? gamma : gamma * Math.sqrt(t);
  }

  private static void requireRound(long t) {
    if (t < 1) {
      throw new IllegalArgumentException("rounds start at 1: " + t);
    }
  }
}
