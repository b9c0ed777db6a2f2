package org.dpstream.core.distributed;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;

/**
 * The resumable state of one {@link DdaNode} between rounds: after {@code completedRounds} = t rounds, the
 * dual variable z_i^(t+1), the iterate x_i^(t+1) and the running sum sum_{tau &lt;= t} a_tau x_i^(tau) of the
 * output average. Everything else (A_t, gamma_t, the round's gossip, the noise) is a function of the public
 * settings, the key and t, so it is recomputed, not stored.
 *
 * <p>Wire format, big-endian: version byte {@value #VERSION}, node id (int), completed rounds (long),
 * dimension m (int), then z, x and the sum as m doubles each. The version byte lets a later format be read
 * side by side. The state holds no key material and no raw samples, only the node's own noisy view.
 *
 * @param nodeId i
 * @param completedRounds t &gt;= 0
 */
public record DdaNodeState(int nodeId, long completedRounds, double[] dual, double[] iterate, double[] weightedIterateSum) {

  /** Current format version. */
  public static final byte VERSION = 1;

  public DdaNodeState {
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
    ByteBuffer out = ByteBuffer.allocate(1 + 4 + 8 + 4 + 3 * 8 * m);
    out.put(VERSION).putInt(nodeId).putLong(completedRounds).putInt(m);
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
      if (version != VERSION) {
        throw new IllegalArgumentException("unknown DP-DDA node state version " + version + " (expected " + VERSION + ")");
      }
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
      return new DdaNodeState(nodeId, rounds, vectors[0], vectors[1], vectors[2]);
    } catch (BufferUnderflowException e) {
      throw new IllegalArgumentException("truncated DP-DDA node state", e);
    }
  }
}
