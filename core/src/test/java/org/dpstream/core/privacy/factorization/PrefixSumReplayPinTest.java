package org.dpstream.core.privacy.factorization;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpstream.core.privacy.PrivatePrefixSums;
import org.dpstream.core.privacy.noise.VectorNoise;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseStream;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;

/**
 * Pins the releases and snapshots of both factorization mechanisms, bit for bit, over three and a half epochs
 * with a restore in the middle of the third: a change of their epoch and replay bookkeeping that moved one
 * bit of any release or snapshot fails here. The digests were taken from the code as of b51b124, before the
 * epoch bookkeeping was shared; the noise is a plain function of the keyed bits (uniform on [-1, 1)), so that
 * the pins do not depend on the Gaussian sampler, and the BLT's parameters are fixed, not optimised.
 */
class PrefixSumReplayPinTest {

  private static final int D = 3;
  private static final long HORIZON = 5;
  private static final int STEPS = 18;
  private static final int CUT = 12; // epoch 2, step 2
  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(2026));
  private static final BltStrategy STRATEGY = BltStrategy.of(new double[] {0.9, 0.4}, new double[] {0.3, 0.2});

  /** Uniform on [-1, 1) from the keyed bits: a fixed function of them, private or not. */
  private static final class UniformNoise implements VectorNoise {
    @Override
    public int dimension() {
      return D;
    }

    @Override
    public void sample(UniformRandomProvider bits, double[] out) {
      for (int j = 0; j < D; j++) {
        out[j] = 2 * bits.nextDouble() - 1;
      }
    }

    @Override
    public String describe() {
      return "uniform(d=" + D + ")";
    }
  }

  private static NoiseStream bits(String purpose) {
    return SOURCE.forStream(purpose, "pin");
  }

  private interface Restore {
    PrivatePrefixSums from(byte[] snapshot) throws IOException;
  }

  /** SHA-256 of the releases' bits, the snapshot at the cut, and the releases after restoring it. */
  private static String digest(PrivatePrefixSums mechanism, Restore restore) throws IOException {
    double[][] leaves = EpochedPrefixSumContract.randomLeaves(STEPS, D, 11);
    ByteBuffer releases = ByteBuffer.allocate(STEPS * D * Double.BYTES);
    double[][] reference = new double[STEPS][D];
    byte[] snapshot = null;
    for (int t = 0; t < STEPS; t++) {
      if (t == CUT) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        mechanism.writeTo(new DataOutputStream(bytes));
        snapshot = bytes.toByteArray();
      }
      mechanism.addAndRelease(leaves[t], reference[t]);
      for (double v : reference[t]) {
        releases.putLong(Double.doubleToRawLongBits(v));
      }
    }
    assertEquals(3, mechanism.epoch());
    assertEquals(STEPS, mechanism.totalSteps());
    PrivatePrefixSums restored = restore.from(snapshot);
    double[] release = new double[D];
    for (int t = CUT; t < STEPS; t++) {
      restored.addAndRelease(leaves[t], release);
      assertArrayEquals(reference[t], release, "t=" + (t + 1));
    }
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(releases.array());
      sha.update(snapshot);
      return HexFormat.of().formatHex(sha.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  private static DataInputStream in(byte[] snapshot) {
    return new DataInputStream(new ByteArrayInputStream(snapshot));
  }

  @Test
  void bltReleasesAndSnapshotsArePinned() throws IOException {
    String purpose = BltPrefixSum.NOISE_PURPOSE;
    String digest = digest(BltPrefixSum.start(STRATEGY, HORIZON, bits(purpose), new UniformNoise()),
        snapshot -> BltPrefixSum.readFrom(in(snapshot), STRATEGY, bits(purpose), new UniformNoise()));
    assertEquals("01f25ec2bd36eb9c3751d2ff4484481f0d502bbfdf9b060bd146b1882c2ef3e0", digest);
  }

  @Test
  void sqrtFactorizationReleasesAndSnapshotsArePinned() throws IOException {
    String purpose = SqrtFactorizationPrefixSum.NOISE_PURPOSE;
    String digest = digest(SqrtFactorizationPrefixSum.start(D, HORIZON, bits(purpose), new UniformNoise()),
        snapshot -> SqrtFactorizationPrefixSum.readFrom(in(snapshot), bits(purpose), new UniformNoise()));
    assertEquals("1435aef808eebfdbb76a6f4551aac034c4922bd4ac74b2859539dc17c999d038", digest);
  }
}
