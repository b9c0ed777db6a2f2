package org.dpstream.service.bandit;

import java.util.ArrayList;
import java.util.List;
import org.dpstream.bandit.hdb.DpHdbDecisionRule;
import org.dpstream.bandit.hdb.DpHdbPolicy;
import org.dpstream.bandit.hdb.JointPrivacyLoss;
import org.dpstream.bandit.linear.DpLinearPolicy;
import org.apache.kafka.streams.KeyValue;
import org.dpstream.core.privacy.accounting.PrivacyLedger;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.service.config.BanditRegistry;
import org.dpstream.service.config.BanditReleaseFormat;
import org.dpstream.service.release.BanditStepReleases;
import org.dpstream.service.release.ModelReleases;
import org.dpstream.service.release.NoiseGeneration;

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

  /**
   * What dp.releases gets for a round's releases (key, value), in the bandit's {@link BanditReleaseFormat}: each
   * release in its noise generation and privacy unit, then, by default, all of them folded into one
   * {@link org.dpstream.schemas.BanditStepRelease} keyed by the bandit id, or each as it is under its model id.
   */
  static List<KeyValue<String, Object>> published(List<ModelRelease> round, NoiseGeneration generation,
      BanditRegistry.Entry entry) {
    if (round.isEmpty()) {
      return List.of();
    }
    List<ModelRelease> stated = new ArrayList<>(round.size());
    for (ModelRelease release : round) {
      stated.add(ModelReleases.inUnit(ModelReleases.inGeneration(release, generation), entry.unit()));
    }
    String banditId = entry.spec().banditId();
    if (entry.releaseFormat() == BanditReleaseFormat.STEP) {
      return List.of(KeyValue.pair(banditId, BanditStepReleases.of(banditId, entry.spec().arms(), stated)));
    }
    List<KeyValue<String, Object>> records = new ArrayList<>(stated.size());
    for (ModelRelease release : stated) {
      records.add(KeyValue.pair(release.getModelId(), release));
    }
    return records;
  }

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
    PrivacyLedger ledger = policy.ledger();
    return ModelReleases.of(policy.spec().armModelId(arm), policy.step(), ledger.epoch(), policy.armParameters(arm),
        policy.mechanism(), LINEAR_P, joint(ledger, LINEAR_JOINT_SUFFIX, policy.privacySpent()));
  }

  /**
   * The bandit's joint ledger as released: the joint budget and spend ({@code spent}), the accountant of
   * {@code ledger} with the joint suffix, its horizon and epoch.
   */
  static PrivacyLedger joint(PrivacyLedger ledger, String suffix, JointPrivacyLoss spent) {
    return PrivacyLedger.of(spent.budget(), ledger.accountant() + suffix, ledger.horizon(), ledger.epoch(),
        spent.epsilon(), spent.delta());
  }

  /** The model id of a bandit's frozen forced-sampling estimators: {@code banditId/forced-sampling}. */
  public static String forcedSamplingModelId(String banditId) {
    return banditId + "/" + DpHdbDecisionRule.FORCED_SAMPLING;
  }

  /** The forced-sampling estimators are published again at least once every this many rounds. */
  static final long FORCED_SAMPLING_REPUBLISH_ROUNDS = 1000;

  /**
   * Everything a release round publishes (key = each release's model id): every arm's parameters and,
   * at the first release after the warm-up and again once every {@value #FORCED_SAMPLING_REPUBLISH_ROUNDS}
   * rounds, the frozen forced-sampling estimators, which the greedy rule also reads: they never change,
   * and publishing them again keeps one within the topic's retention for a decider that restores from it.
   *
   * @param releaseEvery the bandit's release period (rounds between two release rounds)
   */
  public static List<ModelRelease> ofRound(DpHdbPolicy policy, int releaseEvery) {
    List<ModelRelease> round = new ArrayList<>(policy.arms() + 1);
    for (int arm = 0; arm < policy.arms(); arm++) {
      round.add(of(policy, arm));
    }
    long now = policy.rounds();
    long previous = now - releaseEvery;
    if (policy.phase() == org.dpstream.bandit.Decision.Phase.GREEDY
        && (previous < policy.spec().warmUpRounds()
            || previous / FORCED_SAMPLING_REPUBLISH_ROUNDS != now / FORCED_SAMPLING_REPUBLISH_ROUNDS)) {
      round.add(forcedSampling(policy));
    }
    return round;
  }

  public static ModelRelease of(DpHdbPolicy policy, int arm) {
    // The arm's model id, not armSpec(arm).modelId(): that builds the arm's whole spec (derived clipping and
    // all), and this runs for every arm after every round.
    return release(policy, arm, policy.spec().armModelId(arm), policy.armParameters(arm));
  }

  /**
   * The frozen forced-sampling estimators theta_{t0,i} of all arms, arm after arm (K d values), once the
   * warm-up has ended. Each is an iterate arm i already released at step (i + 1) t0 (or would have, with
   * releaseEvery &gt; 1): republishing it costs no privacy. The ledger is arm 0's, as in every arm's release.
   */
  public static ModelRelease forcedSampling(DpHdbPolicy policy) {
    int d = policy.dimension();
    double[] parameters = new double[policy.arms() * d];
    for (int arm = 0; arm < policy.arms(); arm++) {
      double[] frozen = policy.forcedSamplingParameters(arm)
          .orElseThrow(() -> new IllegalStateException("forced-sampling estimators exist after the warm-up only"));
      System.arraycopy(frozen, 0, parameters, arm * d, d);
    }
    return release(policy, 0, forcedSamplingModelId(policy.spec().banditId()), parameters);
  }

  private static ModelRelease release(DpHdbPolicy policy, int arm, String modelId, double[] parameters) {
    PrivacyLedger armLedger = policy.armLedger(arm);
    return ModelReleases.of(modelId, policy.rounds(), armLedger.epoch(), parameters,
        ALGORITHM_PREFIX + policy.armMechanism(), P, joint(armLedger, JOINT_SUFFIX, policy.privacySpent()));
  }
}
