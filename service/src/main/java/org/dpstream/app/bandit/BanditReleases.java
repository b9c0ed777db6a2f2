package org.dpstream.app.bandit;

import java.util.ArrayList;
import java.util.List;
import org.dpstream.bandit.hdb.DpHdbPolicy;
import org.dpstream.bandit.linear.DpLinearPolicy;
import org.dpstream.bandit.hdb.JointPrivacyLoss;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.PrivacyLedger;

/**
 * The ModelRelease of one arm after a round: the public, private output of the bandit. The model id is
 * the arm's ({@code banditId/arm-i}); the step is the bandit's round count (every arm steps every
 * round); the ledger is the bandit's joint one: its total (epsilon, delta) and the joint spend (the two
 * largest arm ledgers added, see docs/bandit-privacy.md), since the guarantee is of all arms' releases
 * together, not of one arm alone.
 */
public final class BanditReleases {

  /** Every arm of DP-HDB lives in an l1 ball. */
  static final double P = 1.0;
  static final String ALGORITHM_PREFIX = DpHdbPolicy.NAME + "/";
  static final String JOINT_SUFFIX = "+joint-dp-2-arms";

  private BanditReleases() {}

  /** DP-Linear's arms are released as their ridge solutions; p = 2 (no ball: theta_k is unconstrained). */
  static final double LINEAR_P = 2.0;
  static final String LINEAR_JOINT_SUFFIX = "+joint-dp-l2";

  /**
   * The ModelRelease of one arm of DP-Linear: model id {@code banditId/arm-i}, parameters theta_i (the ridge
   * solution, post-processing of the released statistics), step = the number of statistics releases (the
   * step {@link org.dpstream.bandit.linear.LinearDecisionRule#greedyArm} takes), algorithm {@code dp-linear/...}.
   * The ledger is the bandit's one joint ledger (docs/bandit-privacy.md, DP-Linear).
   */
  public static ModelRelease of(DpLinearPolicy policy, int arm) {
    double[] theta = policy.armParameters(arm);
    List<Double> parameters = new ArrayList<>(theta.length);
    for (double v : theta) {
      parameters.add(v);
    }
    org.dpstream.core.privacy.accounting.PrivacyLedger ledger = policy.ledger();
    JointPrivacyLoss spent = policy.privacySpent();
    return ModelRelease.newBuilder()
        .setModelId(policy.spec().armModelId(arm))
        .setStep(policy.step())
        .setEpoch(ledger.epoch())
        .setParameters(parameters)
        .setAlgorithm(policy.mechanism())
        .setP(LINEAR_P)
        .setLedger(PrivacyLedger.newBuilder()
            .setEpsilon(spent.budget().epsilon())
            .setDelta(spent.budget().delta())
            .setAccountant(ledger.accountant() + LINEAR_JOINT_SUFFIX)
            .setHorizon(ledger.horizon())
            .setEpoch(ledger.epoch())
            .setEpsilonSpent(spent.epsilon())
            .setDeltaSpent(spent.delta())
            .build())
        .build();
  }

  public static ModelRelease of(DpHdbPolicy policy, int arm) {
    double[] theta = policy.armParameters(arm);
    List<Double> parameters = new ArrayList<>(theta.length);
    for (double v : theta) {
      parameters.add(v);
    }
    org.dpstream.core.privacy.accounting.PrivacyLedger armLedger = policy.armLedger(arm);
    JointPrivacyLoss spent = policy.privacySpent();
    return ModelRelease.newBuilder()
        .setModelId(policy.spec().armSpec(arm).modelId())
        .setStep(policy.rounds())
        .setEpoch(armLedger.epoch())
        .setParameters(parameters)
        .setAlgorithm(ALGORITHM_PREFIX + policy.armMechanism())
        .setP(P)
        .setLedger(PrivacyLedger.newBuilder()
            .setEpsilon(spent.budget().epsilon())
            .setDelta(spent.budget().delta())
            .setAccountant(armLedger.accountant() + JOINT_SUFFIX)
            .setHorizon(armLedger.horizon())
            .setEpoch(armLedger.epoch())
            .setEpsilonSpent(spent.epsilon())
            .setDeltaSpent(spent.delta())
            .build())
        .build();
  }
}
