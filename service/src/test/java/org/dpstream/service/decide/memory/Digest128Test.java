package org.dpstream.service.decide.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A context's digest: the first 128 bits of SHA-256 over its doubles' little-endian bits, -0.0 as 0.0. */
class Digest128Test {

  @Test
  void aContextsDigestIsTheSha256OfItsLittleEndianBits() throws Exception {
    List<Double> context = List.of(1.5, -Math.PI, Double.NaN);
    ByteBuffer bits = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
    context.forEach(v -> bits.putLong(Double.doubleToLongBits(v)));
    ByteBuffer sum = ByteBuffer.wrap(MessageDigest.getInstance("SHA-256").digest(bits.array()));
    assertEquals(new Digest128(sum.getLong(0), sum.getLong(8)), Digest128.ofContext(context));
  }

  @Test
  void negativeZeroIsZeroAndOrderMatters() {
    assertEquals(Digest128.ofContext(List.of(0.0, 2.0)), Digest128.ofContext(List.of(-0.0, 2.0)));
    assertNotEquals(Digest128.ofContext(List.of(0.0, 2.0)), Digest128.ofContext(List.of(2.0, 0.0)));
  }

  @Test
  void aThreadsDigestStartsFreshEveryTime() {
    Digest128 first = Digest128.ofRequest("b", "r-1");
    Digest128.ofContext(List.of(1.0, 2.0));
    assertEquals(first, Digest128.ofRequest("b", "r-1"));
    assertNotEquals(first, Digest128.ofRequest("b", "r-2"));
    assertNotEquals(Digest128.ofRequest("ab", "c"), Digest128.ofRequest("a", "bc"), "the lengths separate the parts");
  }
}
