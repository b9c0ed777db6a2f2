package org.dpstream.service.noise;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.io.DataOutput;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.dpstream.service.noise.PlacedStateStore.StateWriter;
import org.dpstream.service.routing.PlacedState;
import org.dpstream.service.routing.Placement;

/**
 * The reusable buffer a placed state is serialized into after every step: its stamp, then the estimator's or policy's
 * own bytes, copied out once. The states write through {@link DataOutput}; Netty's {@link ByteBufOutputStream} puts
 * each number straight into the buffer, where a {@code DataOutputStream} over a {@code ByteArrayOutputStream} went
 * through a synchronized write per number (most of a state write's time in a CPU profile of the service,
 * docs/benchmarks.md). The bytes are those {@code DataOutputStream} writes. Not thread-safe: one per processor.
 */
public final class StateBytes {

  private static final int INITIAL_CAPACITY = 4096;

  private final ByteBuf buffer = Unpooled.buffer(INITIAL_CAPACITY);
  private final DataOutput output = new CanonicalNaNs(buffer);

  /** The stored form of the state {@code writer} writes: {@link PlacedState#stamp}'s bytes, built in one buffer. */
  public byte[] stamped(Placement placement, int generation, StateWriter writer) {
    DataOutput out = restart();
    try {
      PlacedState.writeStamp(out, placement, generation);
      writer.writeState(out);
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory cannot fail", e);
    }
    return toArray();
  }

  /** Empties the buffer; returns the output to write the next state to. */
  DataOutput restart() {
    buffer.clear();
    return output;
  }

  /** What was written since {@link #restart}. */
  byte[] toArray() {
    return ByteBufUtil.getBytes(buffer);
  }

  /**
   * Doubles and floats as {@link java.io.DataOutputStream} writes them, every NaN as the canonical one: a buffer
   * writes a NaN's raw bits, so two NaNs with different payloads would store different bytes.
   */
  private static final class CanonicalNaNs extends ByteBufOutputStream {
    CanonicalNaNs(ByteBuf buffer) {
      super(buffer);
    }

    @Override
    public void writeDouble(double value) {
      buffer().writeLong(Double.doubleToLongBits(value));
    }

    @Override
    public void writeFloat(float value) {
      buffer().writeInt(Float.floatToIntBits(value));
    }
  }
}
