package org.dpstream.service.noise;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.io.ByteArrayOutputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** A state serialized into {@link StateBytes} has the bytes {@link DataOutputStream} writes, whatever it writes. */
class StateBytesTest {

  /** One call on a {@link DataOutput}. */
  private interface Write {
    void to(DataOutput out) throws IOException;
  }

  @Property(seed = "20261127")
  void everyWriteHasDataOutputStreamsBytesAcrossRestarts(@ForAll("states") List<List<Write>> states) throws IOException {
    StateBytes bytes = new StateBytes();
    for (List<Write> state : states) {
      ByteArrayOutputStream expected = new ByteArrayOutputStream();
      DataOutputStream reference = new DataOutputStream(expected);
      DataOutput out = bytes.restart();
      for (Write write : state) {
        write.to(reference);
        write.to(out);
      }
      assertArrayEquals(expected.toByteArray(), bytes.toArray());
    }
  }

  @Provide
  Arbitrary<List<List<Write>>> states() {
    Arbitrary<Write> write = Arbitraries.oneOf(
        // any bits as a double or a float: NaNs with payloads, infinities, subnormals, negative zero
        Arbitraries.longs().map(bits -> (Write) out -> out.writeDouble(Double.longBitsToDouble(bits))),
        Arbitraries.integers().map(bits -> (Write) out -> out.writeFloat(Float.intBitsToFloat(bits))),
        Arbitraries.of(Double.NaN, -0.0, Double.MIN_VALUE, Double.MAX_VALUE).map(v -> (Write) out -> out.writeDouble(v)),
        Arbitraries.longs().map(v -> (Write) out -> out.writeLong(v)),
        Arbitraries.integers().map(v -> (Write) out -> out.writeInt(v)),
        Arbitraries.integers().map(v -> (Write) out -> out.writeShort(v)),
        Arbitraries.integers().map(v -> (Write) out -> out.writeChar(v)),
        Arbitraries.integers().map(v -> (Write) out -> out.writeByte(v)),
        Arbitraries.integers().map(v -> (Write) out -> out.write(v)),
        Arbitraries.of(true, false).map(v -> (Write) out -> out.writeBoolean(v)),
        Arbitraries.bytes().array(byte[].class).ofMaxSize(5000).map(v -> (Write) out -> out.write(v)),
        Combinators.combine(Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(64),
            Arbitraries.integers().between(0, 63)).as((v, from) -> (Write) out -> out.write(v, from % v.length,
                v.length - from % v.length)),
        // any chars, beyond ASCII and unpaired surrogates included
        Arbitraries.strings().all().ofMaxLength(40).map(v -> (Write) out -> out.writeUTF(v)),
        Arbitraries.strings().all().ofMaxLength(40).map(v -> (Write) out -> out.writeBytes(v)),
        Arbitraries.strings().all().ofMaxLength(40).map(v -> (Write) out -> out.writeChars(v)));
    return write.list().ofMaxSize(60).list().ofMinSize(1).ofMaxSize(4);
  }
}
