package org.dpstream.core.erm;

/**
 * How a coordinate method chooses its {@link LoopSchedule}.
 *
 * <ul>
 *   <li>{@link FromPasses}: T K = passes x (updates per pass); with averaging, one outer iteration per
 *       pass (K = updates per pass, T = passes), else the last iterate. The default.
 *   <li>{@link ConvexTheorem}, {@link StronglyConvexTheorem}: the K and T of DP-SkGD Theorem 4.2
 *       (honoured by {@link DpSkgd}; the problem's passes are then ignored).
 * </ul>
 */
public sealed interface LoopRule {

  /** The default: a fixed number of passes. */
  record FromPasses() implements LoopRule {}

  /** @param radiusBound public upper bound on ||w^0 - w*||_{M P^-1} */
  record ConvexTheorem(double radiusBound) implements LoopRule {}

  /**
   * Needs a regulariser with l2 weight mu &gt; 0, the public strong-convexity modulus.
   *
   * @param gapBound public upper bound on F(w^0) - F*
   */
  record StronglyConvexTheorem(double gapBound, LoopSchedule.InnerLoopLength innerLoopLength)
      implements LoopRule {}

  static LoopRule fromPasses() {
    return new FromPasses();
  }
}
