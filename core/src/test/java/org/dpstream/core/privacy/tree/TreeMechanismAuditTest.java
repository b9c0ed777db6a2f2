package org.dpstream.core.privacy.tree;

import static org.dpstream.core.privacy.audit.PrefixSumAudit.BUDGET;
import static org.dpstream.core.privacy.audit.PrefixSumAudit.HORIZON;
import static org.dpstream.core.privacy.audit.PrefixSumAudit.SENSITIVITY;

import org.dpstream.core.privacy.accounting.GaussianTreeCalibration;
import org.dpstream.core.privacy.accounting.ZcdpBudget;
import org.dpstream.core.privacy.audit.PrefixSumAudit;
import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

/**
 * The empirical audit ({@link PrefixSumAudit}) on the real tree mechanism, on its lattice.
 *
 * <p>Leaf 1 lies in the nodes [1], [1,2], [1..4], [1..8], which are exactly the releases at t = 1, 2, 4, 8, so
 * their sum is the likelihood-ratio statistic: it sees all h = 4 nodes the accountant composes.
 */
class TreeMechanismAuditTest {

  private static final GaussianTreeCalibration CALIBRATION =
      GaussianTreeCalibration.of(ZcdpBudget.of(BUDGET), HORIZON, SENSITIVITY);
  private static final Lattice LATTICE = Lattice.ofPowerOfTwo(-30);
  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(5));
  private static final IidVectorNoise NODE_NOISE = IidVectorNoise.gaussian(1, CALIBRATION.nodeSigma());

  private static final PrefixSumAudit AUDIT = PrefixSumAudit.of(streamId -> new LatticePrefixSums(LATTICE,
          ContinualPrefixSum.compact(1, HORIZON, new KeyedNodeNoise(SOURCE.forStream("tree", streamId), NODE_NOISE,
              LATTICE))),
      TreeMechanismAuditTest::releasesOfTheNodesOfLeafOne);

  private static double releasesOfTheNodesOfLeafOne(double[] releases) {
    double statistic = 0;
    for (int t = 1; t <= HORIZON; t++) {
      if (Integer.bitCount(t) == 1) {
        statistic += releases[t - 1];
      }
    }
    return statistic;
  }

  @Test
  void calibratedTreeWithClippingPassesTheAudit(TestReporter reporter) {
    AUDIT.assertPasses(31L, reporter);
  }

  @Test
  void skippingTheClipIsCaught(TestReporter reporter) {
    AUDIT.assertUnclippedIsCaught(32L, reporter);
  }
}
