package org.dpstream.core.distributed;

import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseStream;

/**
 * The round-by-round gossip schedule, derived from the keyed noise source: round t is
 * {@link GossipSampler#sample} on the bits at (0, t) of stream ("dp-dda/schedule", runId) of kind
 * {@value DdaNode#NOISE_KIND}.
 *
 * <p><b>Why keyed and not a simulation generator.</b> The iota in Theorem 1 comes from amplification by
 * subsampling (Lemma 4.2), which holds only if the adversary cannot predict or observe which nodes are
 * active: a schedule from a public seed would let it condition on the active set and the iota factor would
 * vanish. The schedule is therefore part of the mechanism's secret randomness, like the noise, and is drawn
 * from the same keyed source, which also makes it a pure function of (key, run, t): every node of a
 * deployment that holds the key computes the same W^(t) without a coordinator, and a resumed node
 * recomputes it. Keying is necessary, not sufficient: honest-but-curious nodes that hold the key, and
 * eavesdroppers who see who sends, learn the active set anyway; see {@link DpDdaAccountant} on the
 * conservative accounting for that case.
 *
 * <p>Not thread-safe (it holds one {@link NoiseStream}).
 */
public final class KeyedGossipSchedule {

  /** Stream purpose; distinct from the node streams so no bits are shared. */
  public static final String PURPOSE = "dp-dda/schedule";

  private final GossipSampler sampler;
  private final NoiseStream bits;

  public KeyedGossipSchedule(GossipSampler sampler, KeyedNoiseSource source, String runId) {
    this.sampler = java.util.Objects.requireNonNull(sampler, "sampler");
    this.bits = source.kind(DdaNode.NOISE_KIND).forStream(PURPOSE, runId);
  }

  public GossipSampler sampler() {
    return sampler;
  }

  /** The gossip of round t &gt;= 1; the same on every call. */
  public GossipRound round(long t) {
    if (t < 1) {
      throw new IllegalArgumentException("rounds start at 1: " + t);
    }
    return sampler.sample(t, bits.at(0, t));
  }
}
