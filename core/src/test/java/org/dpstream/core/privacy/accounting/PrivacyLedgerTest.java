package org.dpstream.core.privacy.accounting;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class PrivacyLedgerTest {

  private static final PrivacyBudget BUDGET = new PrivacyBudget(1, 1e-5);

  private static PrivacyLedger fresh() {
    return PrivacyLedger.open(BUDGET, "zcdp-cks20", 1000);
  }

  @Test
  void opensWithNothingSpentInEpochZero() {
    PrivacyLedger ledger = fresh();
    assertEquals(0, ledger.spentEpsilon());
    assertEquals(0, ledger.spentDelta());
    assertEquals(0, ledger.epoch());
    assertEquals(BUDGET, ledger.budget());
  }

  @Test
  void reservesAtTheBoundaryButNotOneUlpPastIt() {
    PrivacyLedger atBoundary = fresh().reserve(BUDGET);
    assertEquals(1, atBoundary.spentEpsilon());
    assertEquals(1e-5, atBoundary.spentDelta());

    PrivacyLedger before = fresh().reserve(new PrivacyBudget(0.5, 1e-5));
    PrivacyBudget epsilonPast = new PrivacyBudget(Math.nextUp(1.0), 1e-5);
    PrivacyBudgetExceededException refused =
        assertThrows(PrivacyBudgetExceededException.class, () -> before.reserve(epsilonPast));
    assertEquals(epsilonPast, refused.requested());
    assertEquals(BUDGET, refused.budget());
    assertTrue(refused.getMessage().contains("1.0000000000000002"), refused::getMessage);
    assertThrows(PrivacyBudgetExceededException.class,
        () -> before.reserve(new PrivacyBudget(0.6, Math.nextUp(1e-5))));
    assertEquals(0.5, before.spentEpsilon(), "a refused reservation leaves the ledger unchanged");
  }

  @Test
  void spentNeverDecreases() {
    PrivacyLedger ledger = fresh().reserve(new PrivacyBudget(0.5, 1e-6)).reserve(new PrivacyBudget(0.3, 1e-5));
    assertEquals(0.5, ledger.spentEpsilon());
    assertEquals(1e-5, ledger.spentDelta());
  }

  @Test
  void newEpochKeepsSpentBecauseEpochsComposeInParallel() {
    PrivacyLedger ledger = fresh().reserve(new PrivacyBudget(0.9, 1e-5)).startEpoch();
    assertEquals(1, ledger.epoch());
    assertEquals(0.9, ledger.spentEpsilon());
  }

  @Test
  void aCalibratedTreeRunsThreeEpochsWithoutARefusal() {
    GaussianTreeCalibration calibration = GaussianTreeCalibration.of(ZcdpBudget.of(BUDGET), 100, 1);
    PrivacyLedger ledger = PrivacyLedger.open(calibration);
    for (int epoch = 0; epoch < 3; epoch++) {
      for (long t = 1; t <= calibration.horizon(); t++) {
        ledger = ledger.reserve(calibration.spentAfter(t)); // reserve, then (elsewhere) release
      }
      ledger = ledger.startEpoch();
    }
    assertEquals(3, ledger.epoch());
    assertTrue(ledger.spentEpsilon() <= 1 && ledger.spentEpsilon() > 0.9);
    assertEquals("zcdp-cks20", ledger.accountant());
  }

  @Test
  void serialisesCompactlyAndRoundTrips() {
    PrivacyLedger ledger = fresh().reserve(new PrivacyBudget(0.25, 1e-6)).startEpoch();
    byte[] bytes = ledger.toBytes();
    // 1 version + 4 doubles + 2 longs + 1 length + 10 name bytes = 1 + 32 + 16 + 1 + 10 = 60
    assertEquals(60, bytes.length);
    assertEquals(PrivacyLedger.FORMAT_VERSION, bytes[0]);
    PrivacyLedger back = PrivacyLedger.fromBytes(bytes);
    assertEquals(ledger, back);
    assertArrayEquals(bytes, back.toBytes());
  }

  @Test
  void aStateSnapshotFramesTheLedgerByItsLengthAndReadsItBack() throws IOException {
    PrivacyLedger ledger = fresh().reserve(new PrivacyBudget(0.25, 1e-6)).startEpoch();
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    ledger.writeTo(new DataOutputStream(buffer));
    byte[] framed = buffer.toByteArray();
    // an unsigned short of the length, then toBytes()
    assertEquals(2 + 60, framed.length);
    assertEquals(60, ((framed[0] & 0xff) << 8) | (framed[1] & 0xff));
    assertArrayEquals(ledger.toBytes(), Arrays.copyOfRange(framed, 2, framed.length));
    assertEquals(ledger, PrivacyLedger.readFrom(new DataInputStream(new ByteArrayInputStream(framed))));
  }

  @Test
  void aCorruptLedgerInAStateSnapshotIsAnIoErrorThatSaysWhy() throws IOException {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    fresh().writeTo(new DataOutputStream(buffer));
    byte[] framed = buffer.toByteArray();
    framed[2] = 2; // the format version, after the length
    IOException error = assertThrows(IOException.class,
        () -> PrivacyLedger.readFrom(new DataInputStream(new ByteArrayInputStream(framed))));
    assertTrue(error.getMessage().contains("corrupt privacy ledger"), error::getMessage);
    assertTrue(error.getMessage().contains("unknown format version 2"), error::getMessage);
  }

  @Test
  void equalLedgersHashAlikeAndDifferentOnesApart() {
    PrivacyLedger ledger = fresh().reserve(new PrivacyBudget(0.25, 1e-6));
    assertEquals(ledger.hashCode(), PrivacyLedger.fromBytes(ledger.toBytes()).hashCode());
    assertNotEquals(ledger.hashCode(), fresh().hashCode());
    assertNotEquals(ledger.hashCode(), ledger.startEpoch().hashCode());
  }

  @Test
  void unknownVersionFailsLoudly() {
    byte[] bytes = fresh().toBytes();
    bytes[0] = 2;
    IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> PrivacyLedger.fromBytes(bytes));
    assertTrue(error.getMessage().contains("unknown format version 2"), error::getMessage);
  }

  @Test
  void everyTruncationAndTrailingGarbageFailLoudly() {
    byte[] bytes = fresh().toBytes();
    for (int length = 0; length < bytes.length; length++) {
      byte[] truncated = Arrays.copyOf(bytes, length);
      IllegalArgumentException error =
          assertThrows(IllegalArgumentException.class, () -> PrivacyLedger.fromBytes(truncated));
      assertTrue(error.getMessage().contains("truncated") || error.getMessage().contains("empty"),
          error::getMessage);
    }
    byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
    assertThrows(IllegalArgumentException.class, () -> PrivacyLedger.fromBytes(longer));
  }

  @Test
  void corruptValuesAreRejectedOnRead() {
    byte[] bytes = fresh().toBytes();
    // spent epsilon (offset 1 + 16) set to 2.0, over the budget of 1
    java.nio.ByteBuffer.wrap(bytes).putDouble(17, 2.0);
    assertThrows(IllegalArgumentException.class, () -> PrivacyLedger.fromBytes(bytes));
    // epoch (offset 1 + 32 + 8) set to -1
    byte[] negativeEpoch = fresh().toBytes();
    java.nio.ByteBuffer.wrap(negativeEpoch).putLong(41, -1);
    IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> PrivacyLedger.fromBytes(negativeEpoch));
    assertTrue(error.getMessage().contains("epoch must be non-negative"), error::getMessage);
  }

  @Test
  void toStringShowsTheNumbers() {
    String text = fresh().reserve(new PrivacyBudget(0.25, 1e-6)).toString();
    assertEquals("PrivacyLedger[accountant=zcdp-cks20, budget=(eps=1.0, delta=1.0E-5), "
        + "spent=(eps=0.25, delta=1.0E-6), horizon=1000, epoch=0]", text);
  }

  @Test
  void rejectsBadConstruction() {
    assertThrows(IllegalArgumentException.class, () -> PrivacyLedger.open(BUDGET, " ", 10));
    assertThrows(IllegalArgumentException.class, () -> PrivacyLedger.open(BUDGET, "x".repeat(256), 10));
    // 255 bytes is the longest name the one-byte length of the binary form can carry
    PrivacyLedger longest = PrivacyLedger.open(BUDGET, "x".repeat(255), 10);
    assertEquals(longest, PrivacyLedger.fromBytes(longest.toBytes()));
    assertThrows(IllegalArgumentException.class, () -> PrivacyLedger.open(BUDGET, "zcdp", 0));
    assertNotEquals(fresh(), fresh().startEpoch());
  }
}
