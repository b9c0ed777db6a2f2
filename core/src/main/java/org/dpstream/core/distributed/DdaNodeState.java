package org.dpstream.core.distributed;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import org.dpstream.core.privacy.random.KeyCheck;

/**
 * The resumable state of one {@link DdaNode} between rounds: after {@code completedRounds} = t rounds, the
 * dual variable z_i^(t+1), the iterate x_i^(t+1) and the running sum sum_{tau &lt;= t} a_tau x_i^(tau) of the
 * output average. Everything else (A_t, gamma_t, the round's gossip, the noise) is a function of the public
 * settings, the key and t, so it is recomputed, not stored.
 *
 * <p>Wire format, big-endian: version byte {@value #VERSION}, the key check (long), the noise law's digest
 * (length byte and bytes), node id (int), completed rounds (long), dimension m (int), then z, x and the sum as m
 * doubles each. The version byte lets a later format be read side by side. The state holds no key material (the
 * key check reveals nothing of it) and no raw samples, only the node's own noisy view.
 *
 * @param nodeId i
 * @param completedRounds t &gt;= 0
 * @param key the check value of the key the run draws under
 * @param law the digest of the node's noise law ({@link DdaNode#lawOf})
 */
public record DdaNodeState(int nodeId, long completedRounds, double[] dual, double[] iterate, double[] weightedIterateSum,
    KeyCheck key, byte[] law) {

  /** Current format version: 2 binds the checkpoint to its noise key and law (1 named neither). */
  public static final byte VERSION = 2;

  public DdaNodeState {
    java.util.Objects.requireNonNull(key, "key");
    law = law.clone();
    if (law.length > 255) {
      throw new IllegalArgumentException("a law digest has at most 255 bytes");
    }
    if (nodeId < 0 || completedRounds < 0) {
      throw new IllegalArgumentException("node id and completed rounds must be >= 0");
    }
    dual = dual.clone();
    iterate = iterate.clone();
    weightedIterateSum = weightedIterateSum.clone();
    if (iterate.length != dual.length || weightedIterateSum.length != dual.length) {
      throw new IllegalArgumentException("z, x and the iterate sum must have one dimension");
    }
  }

  @Override
  public byte[] law() {
    return law.clone();
  }

  @Override
  public double[] dual() {
    return dual.clone();
  }

  @Override
  public double[] iterate() {
    return iterate.clone();
  }

  @Override
  public double[] weightedIterateSum() {
    return weightedIterateSum.clone();
  }

  /** The wire form. */
  public byte[] toBytes() {
    int m = dual.length;
    ByteBuffer out = ByteBuffer.allocate(1 + 8 + 1 + law.length + 4 + 8 + 4 + 3 * 8 * m);
    out.put(VERSION).putLong(key.value()).put((byte) law.length).put(law).putInt(nodeId).putLong(completedRounds)
        .putInt(m);
    for (double[] vector : new double[][] {dual, iterate, weightedIterateSum}) {
      for (double v : vector) {
        out.putDouble(v);
      }
    }
    return out.array();
  }

  /**
   * Reads {@link #toBytes()}.
   *
   * @throws IllegalArgumentException on an unknown version, a truncated or an over-long input
   */
  public static DdaNodeState fromBytes(byte[] bytes) {
    ByteBuffer in = ByteBuffer.wrap(bytes);
    try {
      byte version = in.get();
      if (version == 1) {
        throw new IllegalArgumentException("a DP-DDA node state of version 1 names neither its noise key nor its noise"
            + " law (written by an earlier build); it is not resumed: start the run again with a new runId");
      }
      if (version != VERSION) {
        throw new IllegalArgumentException("unknown DP-DDA node state version " + version + " (expected " + VERSION + ")");
      }
      KeyCheck key = new KeyCheck(in.getLong());
      byte[] law = new byte[in.get() & 0xFF];
      in.get(law);
      int nodeId = in.getInt();
      long rounds = in.getLong();
      int m = in.getInt();
      if (m < 1 || (long) m * 24 != in.remaining()) {
        throw new IllegalArgumentException("node state length does not match its dimension " + m);
      }
      double[][] vectors = new double[3][m];
      for (double[] vector : vectors) {
        for (int j = 0; j < m; j++) {
          vector[j] = in.getDouble();
        }
      }
      return new DdaNodeState(nodeId, rounds, vectors[0], vectors[1], vectors[2], key, law);
    } catch (BufferUnderflowException e) {
      throw new IllegalArgumentException("truncated DP-DDA node state", e);
    }
  }
}
