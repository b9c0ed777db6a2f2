package org.dpstream.core.privacy.accounting;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * One model's privacy account (ARCHITECTURE.md section 4, invariant 3): budget, accountant, horizon, tree
 * epoch and what has been spent. It reserves before it releases: {@link #reserve(PrivacyBudget)} checks the
 * cumulative loss a release would reach against the budget and only then records it.
 *
 * <p>An immutable value: {@code reserve} and {@code startEpoch} return a new ledger. A Kafka Streams state
 * store holds values, not live objects, so the processor does get, reserve, put, then emit; a refused
 * reservation throws before anything is put, which leaves the stored ledger unchanged by construction, and
 * there is nothing to share between threads.
 *
 * <p>Spent is monotone: a reservation records the componentwise maximum of what was spent and the new
 * cumulative loss (a larger (epsilon, delta) pair is always a valid statement of a guarantee). Epochs: each
 * sample is in exactly one tree, so the event-level guarantee across epochs is the maximum over epochs
 * (parallel composition); {@link #startEpoch()} therefore keeps spent as it is, and the calibrations keep
 * every epoch within the budget.
 *
 * <p>Binary form (version 1, big-endian): version byte, budget epsilon and delta, spent epsilon and delta
 * (doubles), horizon, epoch (longs), accountant length (unsigned byte) and its UTF-8 bytes.
 */
public final class PrivacyLedger {

  /** The binary format this build writes and reads. */
  public static final byte FORMAT_VERSION = 1;

  private static final int MAX_ACCOUNTANT_BYTES = 255;
  private static final int FIXED_BYTES = 1 + 4 * Double.BYTES + 2 * Long.BYTES + 1;

  private final PrivacyBudget budget;
  private final String accountant;
  private final long horizon;
  private final long epoch;
  private final double spentEpsilon;
  private final double spentDelta;

  private PrivacyLedger(PrivacyBudget budget, String accountant, long horizon, long epoch,
      double spentEpsilon, double spentDelta) {
    this.budget = Objects.requireNonNull(budget, "budget");
    this.accountant = requireAccountant(accountant);
    if (horizon < 1) {
      throw new IllegalArgumentException("horizon must be at least 1, got " + horizon);
    }
    if (epoch < 0) {
      throw new IllegalArgumentException("epoch must be non-negative, got " + epoch);
    }
    if (!(spentEpsilon >= 0 && spentEpsilon <= budget.epsilon())
        || !(spentDelta >= 0 && spentDelta <= budget.delta())) {
      throw new IllegalArgumentException("spent (" + spentEpsilon + ", " + spentDelta
          + ") must be non-negative and within the budget " + budget);
    }
    this.horizon = horizon;
    this.epoch = epoch;
    this.spentEpsilon = spentEpsilon;
    this.spentDelta = spentDelta;
  }

  /** A fresh ledger: epoch 0, nothing spent. */
  public static PrivacyLedger open(PrivacyBudget budget, String accountant, long horizon) {
    return new PrivacyLedger(budget, accountant, horizon, 0, 0, 0);
  }

  /** A fresh ledger for a calibration's budget, accountant and horizon. */
  public static PrivacyLedger open(PrivacyCalibration calibration) {
    return open(calibration.budget(), calibration.accountant(), calibration.horizon());
  }

  /**
   * A ledger from its parts, as a state snapshot or a joint accountant (the bandits' two-arm composition)
   * states them; the invariants are checked as on {@link #fromBytes}.
   *
   * @throws IllegalArgumentException if spent is negative or beyond the budget, horizon &lt; 1 or epoch &lt; 0
   */
  public static PrivacyLedger of(PrivacyBudget budget, String accountant, long horizon, long epoch,
      double spentEpsilon, double spentDelta) {
    return new PrivacyLedger(budget, accountant, horizon, epoch, spentEpsilon, spentDelta);
  }

  /**
   * The ledger of a whole run, reserved up front: opened for the calibration's budget, accountant and horizon,
   * with the cost of all its releases, {@code calibration.spentAfter(horizon)}, reserved. A batch mechanism
   * (DP-SGD, DP-CD, DP-SkGD, the perturbation baselines, DP-DDA) calls this before it draws any noise or
   * releases anything, and releases only if it returns.
   *
   * @throws PrivacyBudgetExceededException if the run would cost more than its budget (a calibration whose
   *     parameters were not derived from the budget: an explicit noise scale, a paper's formula outside its
   *     premises)
   */
  public static PrivacyLedger forRun(PrivacyCalibration calibration) {
    return open(calibration).reserve(calibration.spentAfter(calibration.horizon()));
  }

  /** Whether a release bringing the cumulative loss to {@code cumulativeAfterRelease} fits the budget. */
  public boolean allows(PrivacyBudget cumulativeAfterRelease) {
    return cumulativeAfterRelease.isWithin(budget);
  }

  /**
   * Records that the cumulative loss is about to become {@code cumulativeAfterRelease}; call before the
   * release is emitted, and emit only if this returns.
   *
   * @return the ledger with spent = componentwise max(spent, cumulativeAfterRelease)
   * @throws PrivacyBudgetExceededException if the cumulative loss would exceed the budget in epsilon or
   *     delta (exact comparison: at the budget is allowed, one ulp beyond is not); this ledger is unchanged
   */
  public PrivacyLedger reserve(PrivacyBudget cumulativeAfterRelease) {
    Objects.requireNonNull(cumulativeAfterRelease, "cumulativeAfterRelease");
    if (!allows(cumulativeAfterRelease)) {
      throw new PrivacyBudgetExceededException(
          budget, cumulativeAfterRelease, "accountant " + accountant + ", epoch " + epoch);
    }
    return new PrivacyLedger(budget, accountant, horizon, epoch,
        Math.max(spentEpsilon, cumulativeAfterRelease.epsilon()),
        Math.max(spentDelta, cumulativeAfterRelease.delta()));
  }

  /** The next tree epoch over new samples; spent is kept (maximum over parallel epochs). */
  public PrivacyLedger startEpoch() {
    return new PrivacyLedger(budget, accountant, horizon, Math.addExact(epoch, 1), spentEpsilon, spentDelta);
  }

  public PrivacyBudget budget() {
    return budget;
  }

  public String accountant() {
    return accountant;
  }

  public long horizon() {
    return horizon;
  }

  public long epoch() {
    return epoch;
  }

  public double spentEpsilon() {
    return spentEpsilon;
  }

  public double spentDelta() {
    return spentDelta;
  }

  /** The compact binary form, {@link #FORMAT_VERSION} first. */
  public byte[] toBytes() {
    byte[] name = accountant.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(FIXED_BYTES + name.length)
        .put(FORMAT_VERSION)
        .putDouble(budget.epsilon())
        .putDouble(budget.delta())
        .putDouble(spentEpsilon)
        .putDouble(spentDelta)
        .putLong(horizon)
        .putLong(epoch)
        .put((byte) name.length)
        .put(name)
        .array();
  }

  /** Writes {@link #toBytes} framed by its length (an unsigned short), as every state snapshot stores a ledger. */
  public void writeTo(java.io.DataOutput out) throws java.io.IOException {
    byte[] bytes = toBytes();
    out.writeShort(bytes.length);
    out.write(bytes);
  }

  /**
   * Reads a ledger written by {@link #writeTo}.
   *
   * @throws java.io.IOException if the input ends early or the bytes are not a ledger
   */
  public static PrivacyLedger readFrom(java.io.DataInput in) throws java.io.IOException {
    byte[] bytes = new byte[in.readUnsignedShort()];
    in.readFully(bytes);
    try {
      return fromBytes(bytes);
    } catch (IllegalArgumentException e) {
      throw new java.io.IOException("corrupt privacy ledger in state: " + e.getMessage(), e);
    }
  }

  /**
   * Reads {@link #toBytes()}'s form.
   *
   * @throws IllegalArgumentException on empty or truncated input, trailing bytes, an unknown version, or
   *     values that violate the ledger's invariants
   */
  public static PrivacyLedger fromBytes(byte[] bytes) {
    Objects.requireNonNull(bytes, "bytes");
    if (bytes.length == 0) {
      throw new IllegalArgumentException("privacy ledger: empty input");
    }
    if (bytes[0] != FORMAT_VERSION) {
      throw new IllegalArgumentException("privacy ledger: unknown format version " + Byte.toUnsignedInt(bytes[0])
          + " (this build reads version " + FORMAT_VERSION + ")");
    }
    ByteBuffer in = ByteBuffer.wrap(bytes);
    try {
      in.get();
      PrivacyBudget budget = new PrivacyBudget(in.getDouble(), in.getDouble());
      double spentEpsilon = in.getDouble();
      double spentDelta = in.getDouble();
      long horizon = in.getLong();
      long epoch = in.getLong();
      byte[] name = new byte[Byte.toUnsignedInt(in.get())];
      in.get(name);
      if (in.hasRemaining()) {
        throw new IllegalArgumentException("privacy ledger: " + in.remaining() + " unexpected trailing bytes");
      }
      return new PrivacyLedger(
          budget, new String(name, StandardCharsets.UTF_8), horizon, epoch, spentEpsilon, spentDelta);
    } catch (BufferUnderflowException e) {
      throw new IllegalArgumentException("privacy ledger: truncated input of " + bytes.length + " bytes", e);
    }
  }

  private static String requireAccountant(String accountant) {
    Objects.requireNonNull(accountant, "accountant");
    if (accountant.isBlank()) {
      throw new IllegalArgumentException("accountant name must not be blank");
    }
    if (accountant.getBytes(StandardCharsets.UTF_8).length > MAX_ACCOUNTANT_BYTES) {
      throw new IllegalArgumentException("accountant name longer than " + MAX_ACCOUNTANT_BYTES + " UTF-8 bytes");
    }
    return accountant;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof PrivacyLedger that
        && budget.equals(that.budget)
        && accountant.equals(that.accountant)
        && horizon == that.horizon
        && epoch == that.epoch
        && Double.compare(spentEpsilon, that.spentEpsilon) == 0
        && Double.compare(spentDelta, that.spentDelta) == 0;
  }

  @Override
  public int hashCode() {
    return Objects.hash(budget, accountant, horizon, epoch, spentEpsilon, spentDelta);
  }

  @Override
  public String toString() {
    return "PrivacyLedger[accountant=" + accountant + ", budget=(eps=" + budget.epsilon() + ", delta="
        + budget.delta() + "), spent=(eps=" + spentEpsilon + ", delta=" + spentDelta + "), horizon=" + horizon
        + ", epoch=" + epoch + "]";
  }
}
