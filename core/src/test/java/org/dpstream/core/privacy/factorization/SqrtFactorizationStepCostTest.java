package org.dpstream.core.privacy.factorization;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Locale;
import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseStream;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

/**
 * Reports (does not assert) the cost of one step deep into an epoch, d = 5 at t = 10000. Thanks to the O(d)
 * state, the mechanism is put there by a hand-written snapshot instead of 10^4 steps of O(t) each.
 */
class SqrtFactorizationStepCostTest {

  private static final int D = 5;
  private static final long STEP = 10_000;

  @Test
  void oneStepAtTenThousand(TestReporter reporter) throws IOException {
    NoiseStream bits = new KeyedNoiseSource(TestKeys.seeded(43)).forStream(SqrtFactorizationPrefixSum.NOISE_PURPOSE, "cost");
    IidVectorNoise noise = IidVectorNoise.gaussian(D, 1);
    double[] leaf = {0.1, 0.2, 0.3, 0.4, 0.5};
    double[] release = new double[D];
    int repetitions = 20;
    long best = Long.MAX_VALUE;
    for (int rep = 0; rep < repetitions; rep++) {
      SqrtFactorizationPrefixSum mechanism = SqrtFactorizationPrefixSum.readFrom(
          new DataInputStream(new ByteArrayInputStream(snapshotAt(STEP - 1))), bits, noise);
      long start = System.nanoTime();
      mechanism.addAndRelease(leaf, release);
      best = Math.min(best, System.nanoTime() - start);
      assertEquals(STEP, mechanism.stepsInEpoch());
    }
    reporter.publishEntry("step-cost", String.format(Locale.ROOT,
        "d=%d, t=%d: best of %d steps %.2f ms (%.0f ns per regenerated draw)",
        D, STEP, repetitions, best / 1e6, (double) best / STEP));
  }

  /** The documented layout of {@link SqrtFactorizationPrefixSum#writeTo}, epoch 0, zero base and sum. */
  private static byte[] snapshotAt(long steps) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeByte(SqrtFactorizationPrefixSum.SNAPSHOT_VERSION);
    out.writeInt(D);
    out.writeLong(1 << 20);
    out.writeLong(0);
    for (int j = 0; j < 2 * D; j++) {
      if (j == D) {
        out.writeLong(steps);
      }
      out.writeDouble(0);
    }
    return bytes.toByteArray();
  }
}
