package org.dpstream.service.routing;

import java.io.ByteArrayOutputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A state-store value stamped with the noise scope its state was created in, its placement and noise generation:
 * {@code magic, partition, partitions, state} for generation 0, {@code magic', partition, partitions, generation,
 * state} for a later one. A state is only ever resumed where it was created; one found anywhere else (a
 * changelog restored into another task, a state written before routing existed) is refused with
 * {@link MisplacedStateException} rather than continued, because its noise belongs to another scope.
 */
public final class PlacedState {

  // "DPpl": distinct from the first bytes of the estimators' own state formats, so an unstamped state
  // written by an earlier version is recognised as such.
  private static final int MAGIC = 0x4450_706C;
  // "DPpg": a state of a noise generation after 0 (generation 0 keeps the first stamp, byte for byte).
  private static final int GENERATION_MAGIC = 0x4450_7067;
  private static final int HEADER = 12;

  private PlacedState() {}

  /** A stored state: the generation whose noise scope it lives in, and the state's own bytes. */
  public record Opened(int generation, byte[] state) {}

  /** The stored form of {@code state} created at {@code placement} in noise generation 0. */
  public static byte[] stamp(Placement placement, byte[] state) {
    return stamp(placement, 0, state);
  }

  /** The stored form of {@code state} created at {@code placement} in noise generation {@code generation}. */
  public static byte[] stamp(Placement placement, int generation, byte[] state) {
    ByteArrayOutputStream stored = new ByteArrayOutputStream(stampLength(generation) + state.length);
    try {
      DataOutputStream out = new DataOutputStream(stored);
      writeStamp(out, placement, generation);
      out.write(state);
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory cannot fail", e);
    }
    return stored.toByteArray();
  }

  /** Writes the stamp that {@link #stamp} puts before a state: the state's bytes are to follow it in {@code out}. */
  public static void writeStamp(DataOutput out, Placement placement, int generation) throws IOException {
    out.writeInt(generation == 0 ? MAGIC : GENERATION_MAGIC);
    out.writeInt(placement.partition());
    out.writeInt(placement.partitions());
    if (generation != 0) {
      out.writeInt(generation);
    }
  }

  /** The bytes of {@link #writeStamp}'s stamp in noise generation {@code generation}. */
  public static int stampLength(int generation) {
    return generation == 0 ? HEADER : HEADER + Integer.BYTES;
  }

  /**
   * The state stored in {@code stored}, which must have been created at {@code here}.
   *
   * @throws MisplacedStateException if it was created elsewhere or carries no placement
   */
  public static byte[] open(String id, Placement here, byte[] stored) {
    return openStamped(id, here, stored).state();
  }

  /**
   * The state stored in {@code stored} with its noise generation; it must have been created at {@code here}.
   *
   * @throws MisplacedStateException if it was created elsewhere or carries no placement
   */
  public static Opened openStamped(String id, Placement here, byte[] stored) {
    ByteBuffer buffer = ByteBuffer.wrap(stored);
    int magic = stored.length < HEADER ? 0 : buffer.getInt();
    if (magic != MAGIC && magic != GENERATION_MAGIC) {
      throw new MisplacedStateException("the stored state of " + id + " carries no placement (written by a dpstream"
          + " version that did not route by id); it is not resumed in " + here
          + ": start the application with a new applicationId and a new noise key");
    }
    Placement created;
    int generation;
    try {
      created = new Placement(buffer.getInt(), buffer.getInt());
      generation = magic == MAGIC ? 0 : buffer.getInt();
      if (generation < 1 && magic == GENERATION_MAGIC) {
        throw new IllegalArgumentException("noise generation " + generation);
      }
    } catch (IllegalArgumentException | java.nio.BufferUnderflowException e) {
      throw new MisplacedStateException("the stored state of " + id + " has a corrupt placement: " + e.getMessage());
    }
    if (!created.equals(here)) {
      throw new MisplacedStateException("the state of " + id + " was created in " + created + " and is not resumed in "
          + here + " (routingPartitions changed, or the changelog was restored elsewhere)");
    }
    return new Opened(generation, Arrays.copyOfRange(stored, buffer.position(), stored.length));
  }

  /** A state that may not be resumed where it was found. */
  public static final class MisplacedStateException extends RuntimeException {
    MisplacedStateException(String message) {
      super(message, null, false, false);
    }
  }
}
