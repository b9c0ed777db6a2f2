package org.dpstream.core.distributed;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Set;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.erm.ErmDataset;
import org.dpstream.core.erm.FeatureBounds;
import org.dpstream.core.erm.Regularizer;
import org.dpstream.core.privacy.audit.AuditResult;
import org.dpstream.core.privacy.audit.AuditedMechanism;
import org.dpstream.core.privacy.audit.PrivacyAuditor;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

/**
 * The empirical privacy audit (as in TreeMechanismAuditTest) on one node's message
 * sequence, produced by the real {@link DdaNode}, keyed noise and accountant.
 *
 * <p>Worst case for the accountant's chain: one node (n = 1, iota = 1) holding one sample (q = 1), so
 * neither subsampling amplifies; neighbouring data replace the sample (c, +1) by (c, -1), ||c|| = L = 1, so
 * the subgradients differ by up to 2L. Because the single node's z is the running sum of its releases, its
 * last message is z + a_T zeta_T = sum_t a_t zeta_t and its projection on c sums the likelihood-ratio
 * statistics of the T releases. The claim audited is the accountant's (eps, delta) for the sigma used.
 */
class DdaNodeAuditTest {

  private static final int ROUNDS = 4;
  private static final double SIGMA = 4.0;
  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(17));
  private static final DdaSettings SETTINGS = DdaSettings.of(1.0, SIGMA, StepSchedule.generalConvex(1),
      new DualAveragingProx(Regularizer.l2(0.1), FeasibleSet.wholeSpace()), HingeLoss.ofRowNormBound(1));
  private static final GossipSampler LONE_NODE = new GossipSampler(GossipGraph.complete(1), 1.0, GossipSampler.Mode.RANDOM_MATCHING);
  private static final ErmDataset ORIGINAL = oneSample(+1);
  private static final ErmDataset NEIGHBOUR = oneSample(-1);
  private static final DpDdaAccountant ACCOUNTANT =
      DpDdaAccountant.of(1, 1, 1.0, 1e-5, ROUNDS).withCompositionSlack(1e-5);
  private static final int RUNS_PER_INPUT = 100_000;

  private static ErmDataset oneSample(double label) {
    return ErmDataset.of(new double[][] {{1, 0}}, new double[] {label}, FeatureBounds.uniform(2, 1));
  }

  private static AuditedMechanism nodeMessages() {
    return (neighbour, rng) -> {
      String runId = Long.toHexString(rng.nextLong());
      DdaNode node = new DdaNode(0, neighbour ? NEIGHBOUR : ORIGINAL, SETTINGS, SOURCE, runId);
      KeyedGossipSchedule schedule = new KeyedGossipSchedule(LONE_NODE, SOURCE, runId);
      LastMessage transport = new LastMessage();
      for (long t = 1; t <= ROUNDS; t++) {
        GossipRound round = schedule.round(t);
        node.broadcast(round, transport);
        node.mix(round, transport);
      }
      return transport.last[0];
    };
  }

  private static AuditResult audit(double claimedDelta, long seed) {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    return PrivacyAuditor.of(1e-3, claimedDelta).audit(nodeMessages(), RUNS_PER_INPUT, rng);
  }

  @Test
  void theNodesMessagesStayWithinTheAccountantsGuarantee(TestReporter reporter) {
    DpDdaPrivacyReport claim = ACCOUNTANT.report(SIGMA, 1.0);
    AuditResult result = audit(claim.delta(), 41L);
    reporter.publishEntry("audit", claim.describe() + " / " + result);
    result.assertAtMost(claim.epsilon());
    assertTrue(result.epsilonLowerBound() > 0.3, result.toString());
  }

  @Test
  void aClaimForTenTimesTheNoiseIsCaught(TestReporter reporter) {
    // Noise calibrated for the wrong epsilon: the accountant's claim for 10 sigma does not hold for sigma.
    DpDdaPrivacyReport wrongClaim = ACCOUNTANT.report(10 * SIGMA, 1.0);
    AuditResult result = audit(wrongClaim.delta(), 42L);
    reporter.publishEntry("audit", wrongClaim.describe() + " / " + result);
    assertThrows(AssertionError.class, () -> result.assertAtMost(wrongClaim.epsilon()), result.toString());
  }

  /** Keeps the lone node's last message; it mixes with nobody. */
  private static final class LastMessage implements GossipTransport {
    double[] last;

    @Override
    public void send(int fromNode, long round, Set<Integer> recipients, double[] message) {
      last = message.clone();
    }

    @Override
    public Map<Integer, double[]> receive(int node, long round, Set<Integer> expectedFrom) {
      return Map.of();
    }
  }
}
