package org.dpstream.core.privacy.random;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.SecretKeySpec;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * The noise bits of one stream: for each coordinate (epoch, index), a reproducible cryptographic bit
 * sequence.
 *
 * <p>Counter mode is built over AES/ECB by hand instead of using the JDK's AES/CTR because CTR
 * increments the whole 128-bit block, which would let the sequence of (epoch, index) run into that of
 * (epoch, index + 1); here the counter block is (epoch: 32 bits, index: 64 bits, block: 32 bits), so
 * sequences of distinct coordinates never overlap.
 *
 * <p>Not thread-safe: one instance per stream thread (it reuses one initialised cipher).
 */
public final class NoiseStream {

  private static final VarHandle LITTLE_ENDIAN_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle BIG_ENDIAN_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle BIG_ENDIAN_INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

  /** Largest epoch that fits its 32-bit field of the counter block. */
  public static final long MAX_EPOCH = 0xFFFF_FFFFL;

  private final Cipher cipher;
  /** Null, or the stream of every epoch after {@link #lastEpoch} (a state handing over to the primary key). */
  private final NoiseStream successor;
  private final long lastEpoch;
  /** Null outside the tests' sensitivity recorders ({@link KeyedNoiseSource#observedBy}). */
  private final NoiseDrawObserver observer;
  private final String label;

  NoiseStream(byte[] aesKey) {
    this.successor = null;
    this.lastEpoch = MAX_EPOCH;
    this.observer = null;
    this.label = null;
    try {
      cipher = Cipher.getInstance("AES/ECB/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(aesKey, "AES"));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-256 unavailable in this JVM", e);
    } finally {
      Arrays.fill(aesKey, (byte) 0);
    }
  }

  private NoiseStream(NoiseStream own, long lastEpoch, NoiseStream successor, NoiseDrawObserver observer,
      String label) {
    this.cipher = own.cipher;
    this.lastEpoch = lastEpoch;
    this.successor = successor;
    this.observer = observer;
    this.label = label;
  }

  /** This stream for the epochs up to {@code lastEpoch}, {@code successor} for every later one. */
  NoiseStream handingOverAfter(long lastEpoch, NoiseStream successor) {
    return new NoiseStream(this, lastEpoch, successor, observer, label);
  }

  /** This stream, every coordinate it hands out reported to {@code observer} under {@code label}. */
  NoiseStream observedBy(NoiseDrawObserver observer, String label) {
    return new NoiseStream(this, lastEpoch, successor, observer, label);
  }

  /**
   * The bits at one coordinate. Each call starts the sequence from its beginning, so two providers
   * for the same coordinate produce the same values.
   *
   * @param epoch in [0, {@link #MAX_EPOCH}]
   * @param index any non-negative index, e.g. a tree node id or a step
   */
  public UniformRandomProvider at(long epoch, long index) {
    UniformRandomProvider bits = unobservedAt(epoch, index);
    // One null check per coordinate (a whole vector's draw); the observer exists only in the recorders' tests.
    return observer == null ? bits : observer.drawn(label, epoch, index, bits);
  }

  private UniformRandomProvider unobservedAt(long epoch, long index) {
    if (epoch < 0 || epoch > MAX_EPOCH) {
      throw new IllegalArgumentException("epoch must be in [0, " + MAX_EPOCH + "]: " + epoch);
    }
    if (index < 0) {
      throw new IllegalArgumentException("index must be non-negative: " + index);
    }
    if (successor != null && epoch > lastEpoch) {
      return successor.unobservedAt(epoch, index);
    }
    return new CounterBits(epoch, index);
  }

  /** One coordinate's bit sequence. */
  private final class CounterBits implements UniformRandomProvider {
    private static final int BLOCK = 16;
    /**
     * Small first refill, then each refill as large as everything before it, up to {@link #LATER_BLOCKS}: a draw of
     * d = 20 Gaussians or discrete Gaussians (about 12 blocks) computes 16 blocks instead of 4 + 32. The bits are
     * those of the counters, whatever the refills' sizes.
     */
    private static final int FIRST_BLOCKS = 4;
    private static final int LATER_BLOCKS = 32;
    private static final long MAX_BLOCKS = 1L << 32;

    private final long epoch;
    private final long index;
    private long nextBlock;
    private byte[] counters = new byte[FIRST_BLOCKS * BLOCK];
    private byte[] keystream = new byte[FIRST_BLOCKS * BLOCK];
    private int position;
    private int available;

    CounterBits(long epoch, long index) {
      this.epoch = epoch;
      this.index = index;
    }

    @Override
    public long nextLong() {
      if (position + Long.BYTES > available) {
        refill();
      }
      long value = (long) LITTLE_ENDIAN_LONG.get(keystream, position);
      position += Long.BYTES;
      return value;
    }

    private void refill() {
      int blocks = nextBlock == 0 ? FIRST_BLOCKS : (int) Math.min(LATER_BLOCKS, nextBlock);
      if (nextBlock + blocks > MAX_BLOCKS) {
        throw new IllegalStateException("noise coordinate exhausted (2^32 AES blocks)");
      }
      if (counters.length < blocks * BLOCK) {
        counters = new byte[blocks * BLOCK];
        keystream = new byte[blocks * BLOCK];
      }
      for (int b = 0; b < blocks; b++) {
        int offset = b * BLOCK;
        BIG_ENDIAN_INT.set(counters, offset, (int) epoch);
        BIG_ENDIAN_LONG.set(counters, offset + 4, index);
        BIG_ENDIAN_INT.set(counters, offset + 12, (int) nextBlock++);
      }
      try {
        available = cipher.update(counters, 0, blocks * BLOCK, keystream, 0);
      } catch (ShortBufferException e) {
        throw new IllegalStateException("keystream buffer too small", e);
      }
      position = 0;
    }
  }

  @Override
  public String toString() {
    return "NoiseStream[key redacted]";
  }
}
