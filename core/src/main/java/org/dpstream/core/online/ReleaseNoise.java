package org.dpstream.core.online;

/**
 * The noise a prefix-sum plan puts into its releases, as adaptive clipping weighs it against the bias of a lower
 * threshold ({@link BalancedClipThreshold}). Public functions of the spec.
 */
interface ReleaseNoise {

  /**
   * The variance of one coordinate of the noise of (release after {@code to} leaves) minus (release after {@code from}
   * leaves) within one epoch, 0 &lt;= from &lt; to &lt;= horizon, in real units squared for leaves clipped to the plan's
   * bound; {@code from = 0} is the release's own noise.
   */
  double incrementNoiseVariance(long from, long to);
}
