package org.dpstream.service.routing;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A state-store value stamped with the placement its state was created in: {@code magic, partition,
 * partitions, state}. A state is only ever resumed where it was created; one found anywhere else (a
 * changelog restored into another task, a state written before routing existed) is refused with
 * {@link MisplacedStateException} rather than continued, because its noise belongs to another scope.
 */
public final class PlacedState {

  // "DPpl": distinct from the first bytes of the estimators' own state formats, so an unstamped state
  // written by an earlier version is recognised as such.
  private static final int MAGIC = 0x4450_706C;
  private static final int HEADER = 12;

  private PlacedState() {}

  /** The stored form of {@code state} created at {@code placement}. */
  public static byte[] stamp(Placement placement, byte[] state) {
    return ByteBuffer.allocate(HEADER + state.length)
        .putInt(MAGIC).putInt(placement.partition()).putInt(placement.partitions()).put(state).array();
  }

  /**
   * The state stored in {@code stored}, which must have been created at {@code here}.
   *
   * @throws MisplacedStateException if it was created elsewhere or carries no placement
   */
  public static byte[] open(String id, Placement here, byte[] stored) {
    ByteBuffer buffer = ByteBuffer.wrap(stored);
    if (stored.length < HEADER || buffer.getInt() != MAGIC) {
      throw new MisplacedStateException("the stored state of " + id + " carries no placement (written by a dpstream"
          + " version that did not route by id); it is not resumed in " + here
          + ": start the application with a new applicationId and a new noise key");
    }
    Placement created;
    try {
      created = new Placement(buffer.getInt(), buffer.getInt());
    } catch (IllegalArgumentException e) {
      throw new MisplacedStateException("the stored state of " + id + " has a corrupt placement: " + e.getMessage());
    }
    if (!created.equals(here)) {
      throw new MisplacedStateException("the state of " + id + " was created in " + created + " and is not resumed in "
          + here + " (routingPartitions changed, or the changelog was restored elsewhere)");
    }
    return Arrays.copyOfRange(stored, HEADER, stored.length);
  }

  /** A state that may not be resumed where it was found. */
  public static final class MisplacedStateException extends RuntimeException {
    MisplacedStateException(String message) {
      super(message, null, false, false);
    }
  }
}
