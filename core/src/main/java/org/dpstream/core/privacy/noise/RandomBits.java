package org.dpstream.core.privacy.noise;

import java.util.Objects;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * Random bits served one or a few at a time from the 64-bit words of a source, each bit used once: the
 * exact samplers need about two bits per Bernoulli draw, and a whole word per draw would cost a 64-bit
 * block of AES keystream each time.
 *
 * <p>Deterministic: the bits handed out are a function of the source's words and of the sequence of calls,
 * so a keyed source replays every draw bit for bit. No bit is handed out twice; {@link #nextWord} takes a
 * fresh word and leaves the reservoir as it was.
 *
 * <p>Not thread-safe; one per sequence of draws (e.g. one per tree node).
 */
public final class RandomBits {

  /** Bits compared per step of {@link #bernoulli}: a tie (another step) has probability below 2^-CHUNK_BITS. */
  static final int CHUNK_BITS = 10;

  private final UniformRandomProvider source;
  /** The unused bits, lowest first. */
  private long reservoir;
  private int available;

  private RandomBits(UniformRandomProvider source) {
    this.source = source;
  }

  public static RandomBits of(UniformRandomProvider source) {
    return new RandomBits(Objects.requireNonNull(source, "source"));
  }

  /** One fair bit. */
  public boolean nextBit() {
    if (available == 0) {
      reservoir = source.nextLong();
      available = Long.SIZE;
    }
    boolean bit = (reservoir & 1) != 0;
    reservoir >>>= 1;
    available--;
    return bit;
  }

  /** {@code count} fair bits as the low bits of a non-negative long, 1 &lt;= count &lt;= 63. */
  public long nextBits(int count) {
    if (count <= available) {
      long bits = reservoir & ((1L << count) - 1);
      reservoir >>>= count;
      available -= count;
      return bits;
    }
    // The rest of this word are the low bits, the next word's lowest bits the high ones.
    long low = reservoir;
    int lowCount = available;
    int highCount = count - lowCount; // 1..63
    long word = source.nextLong();
    long high = word & ((1L << highCount) - 1);
    reservoir = word >>> highCount;
    available = Long.SIZE - highCount;
    return low | (high << lowCount);
  }

  /** A fresh 64-bit word from the source (the reservoir is kept for later bits). */
  public long nextWord() {
    return source.nextLong();
  }

  /**
   * A uniform integer in [0, bound), bound &gt;= 1: rejection from the fewest bits that cover the
   * range, so fewer than two tries on average and no modulo bias.
   */
  public long uniformBelow(long bound) {
    if (bound <= 1) {
      if (bound == 1) {
        return 0;
      }
      throw new IllegalArgumentException("bound must be positive: " + bound);
    }
    int width = Long.SIZE - Long.numberOfLeadingZeros(bound - 1);
    while (true) {
      long candidate = nextBits(width);
      if (candidate < bound) {
        return candidate;
      }
    }
  }

  /**
   * Bernoulli(numerator / denominator), 0 &lt;= numerator, 0 &lt; denominator: compares a uniform real U,
   * drawn {@code w} bits at a time, with the fraction, in integers. With V the next w bits, U &lt; a / b is
   * decided as soon as the interval [V, V + 1) 2^-w lies wholly below a / b (V b + b &lt;= a 2^w) or wholly
   * above it (V b &gt;= a 2^w); otherwise (probability below 2^-w) the remainder a 2^w - V b carries the
   * comparison to the next w bits. Exact; w is chosen so that b 2^w stays below 2^63, and few enough bits
   * are drawn that one Bernoulli costs about a sixth of a 64-bit word and a single unpredictable branch.
   */
  public boolean bernoulli(long numerator, long denominator) {
    if (numerator >= denominator) {
      return true;
    }
    if (numerator <= 0) {
      return false;
    }
    int width = Math.min(CHUNK_BITS, Long.numberOfLeadingZeros(denominator) - 1);
    if (width == 0) {
      return bernoulliBitByBit(numerator, denominator);
    }
    long remainder = numerator;
    while (true) {
      long scaled = remainder << width; // < denominator 2^width < 2^63
      long low = nextBits(width) * denominator; // V b, V < 2^width
      boolean below = low + denominator <= scaled;
      // Decided unless a / b falls inside [V, V + 1) 2^-w: the rare branch, so the common path has no
      // unpredictable jump (the outcome is returned as a value).
      if (below | low >= scaled) {
        return below;
      }
      remainder = scaled - low; // in (0, denominator): the fraction's digits after these w
    }
  }

  /** The same comparison one bit at a time, for denominators of 2^62 and above. */
  private boolean bernoulliBitByBit(long numerator, long denominator) {
    long remainder = numerator;
    while (true) {
      remainder <<= 1; // < 2 denominator < 2^64: exact as an unsigned long
      boolean digit = Long.compareUnsigned(remainder, denominator) >= 0;
      if (digit) {
        remainder -= denominator;
      }
      if (nextBit() != digit) {
        return digit; // the uniform's bit is 0 where the fraction's is 1: uniform < fraction
      }
    }
  }
}
