package org.dpstream.core.erm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.dpstream.core.erm.privacy.ZcdpRule;
import org.dpstream.core.loss.GlmLoss;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.testing.TestKeys;
import org.junit.jupiter.api.Test;

/**
 * Pins the runs of DP-CD and DP-SkGD bit for bit (every pass's weights, the update count, the description
 * and the ledger), private and not, under each clipping rule, sampling, zCDP rule and loop rule: a change of
 * their shared calibration and run plumbing that moved one bit of a model, a sigma or a ledger fails here.
 * The digests were taken from the code as of b8a3ce0, before that plumbing was shared.
 */
class CoordinateRunPinTest {

  private static final KeyedNoiseSource SOURCE = new KeyedNoiseSource(TestKeys.seeded(2027));
  private static final double[] BOUNDS = {1, 2, 0.5, 1.5, 3};
  private static final double[] TRUTH = {1, -1, 2, 0, 0.5};
  private static final PrivacyBudget BUDGET = new PrivacyBudget(0.8, 1e-6);

  private static ErmDataset regression() {
    return ErmFixtures.regression(21L, 120, BOUNDS, TRUTH);
  }

  private static ErmDataset classification() {
    return ErmFixtures.classification(22L, 150, BOUNDS, TRUTH);
  }

  /** SHA-256 of the run's name, description, ledger, update count and the bits of every pass's weights. */
  private static String digest(ErmAlgorithm algorithm, ErmProblem problem) {
    ErmRun run = algorithm.train(problem, SOURCE, "pin", PassListener.NONE);
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(run.algorithm().getBytes(StandardCharsets.UTF_8));
      sha.update(run.describe().getBytes(StandardCharsets.UTF_8));
      sha.update(String.valueOf(run.ledger().orElse(null)).getBytes(StandardCharsets.UTF_8));
      sha.update(Long.toString(run.updates()).getBytes(StandardCharsets.UTF_8));
      for (double[] weights : run.passWeights()) {
        for (double w : weights) {
          sha.update(Long.toString(Double.doubleToRawLongBits(w)).getBytes(StandardCharsets.UTF_8));
        }
      }
      for (double w : run.finalWeights()) {
        sha.update(Long.toString(Double.doubleToRawLongBits(w)).getBytes(StandardCharsets.UTF_8));
      }
      return HexFormat.of().formatHex(sha.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void dpCdRunsArePinned() {
    CompositeObjective lasso = CompositeObjective.of(GlmLoss.squared(), Regularizer.l1(0.01));
    CompositeObjective logistic = CompositeObjective.of(GlmLoss.logistic(), Regularizer.l2(0.05));
    ErmOptions clipped = ErmOptions.defaults().withClipNorm(1.0);
    assertEquals("0b618ed7e72172048e5fa052cfc815e9222a4c6bb156e711b68a8f0e44c46d3b",
        digest(new DpCd(DpCd.ClippingRule.UNIFORM),
            ErmProblem.of(regression(), lasso, BUDGET, 3, clipped.withAveraging(true))), "uniform, averaged");
    assertEquals("a5dd0fa5a5eceefcb3a11efa09aa0fa68cf7e47988a47a397fa875cef52b5fd3",
        digest(new DpCd(DpCd.ClippingRule.SMOOTH),
            ErmProblem.of(classification(), logistic, new PrivacyBudget(3, 1e-5), 4,
                clipped.withZcdpRule(ZcdpRule.TIGHT))), "smooth, tight zCDP");
    assertEquals("8422b1aeb88ccaffd2326e0a2c3e15e81810a38cbffad658029aea11c8572f4f",
        digest(new DpCd(DpCd.ClippingRule.SMOOTH),
            ErmProblem.nonPrivate(regression(), lasso, 3, ErmOptions.defaults())), "non-private");
  }

  @Test
  void dpSkgdRunsArePinned() {
    CompositeObjective ridge = CompositeObjective.of(GlmLoss.squared(), Regularizer.l2(0.1));
    CompositeObjective logistic = CompositeObjective.of(GlmLoss.logistic(), Regularizer.l2(0.05));
    assertEquals("b4338f67d19ee6d5e9d7091ea76aee3ace829e375f197bc2d87ed577d5ce73b1",
        digest(new DpSkgd(DpSkgd.Sampling.UNIFORM),
            ErmProblem.of(regression(), ridge, BUDGET, 3,
                ErmOptions.defaults().withResidualClip(2.0).withBlockCount(3))), "uniform, residual clip, b=3");
    assertEquals("a5c9f52ff2b1c7aac35790d75429f7633b29c720c2739f700b104ef5af337330",
        digest(new DpSkgd(DpSkgd.Sampling.IMPORTANCE),
            ErmProblem.of(classification(), logistic, BUDGET, 3,
                ErmOptions.defaults().withClipNorm(0.5).withAveraging(true))), "importance, clipped, b=d, averaged");
    assertEquals("bc3027c845dcb5582d78be62838d636485de8a96a5d0903be7fe2bd1aa1e027d",
        digest(new DpSkgd(DpSkgd.Sampling.IMPORTANCE),
            ErmProblem.of(classification(), logistic, new PrivacyBudget(2, 1e-5), 1,
                ErmOptions.defaults().withBlockCount(2).withZcdpRule(ZcdpRule.SIMPLE_EXACT)
                    .withLoopRule(new LoopRule.ConvexTheorem(1.0)))), "convex theorem's loops");
    assertEquals("1ab82463ff7fcd9663d8203e19129eb41cc5b28b3bb46518636c16cb2c28e546",
        digest(new DpSkgd(DpSkgd.Sampling.UNIFORM),
            ErmProblem.nonPrivate(regression(), ridge, 3, ErmOptions.defaults().withBlockCount(2))), "non-private");
  }
}
