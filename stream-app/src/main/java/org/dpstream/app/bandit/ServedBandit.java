package org.dpstream.app.bandit;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.dpstream.bandit.BanditSpec;
import org.dpstream.bandit.Decision;
import org.dpstream.bandit.hdb.DpHdbPolicy;
import org.dpstream.bandit.hdb.DpHdbSpec;
import org.dpstream.bandit.hdb.JointPrivacyLoss;
import org.dpstream.bandit.linear.DpLinearPolicy;
import org.dpstream.bandit.linear.DpLinearSpec;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.schemas.ModelRelease;

/**
 * A bandit policy as the bandit service runs it (config {@code policy: dp-hdb | dp-linear}): decide, learn,
 * account, persist and publish, whatever the policy.
 */
sealed interface ServedBandit permits ServedBandit.Hdb, ServedBandit.Linear {

  Decision decide(double[] context);

  void update(Decision decision, double[] context, double reward);

  long rounds();

  JointPrivacyLoss privacySpent();

  void writeState(DataOutput out) throws IOException;

  /**
   * The releases to publish after the round just learnt, one per arm, or none.
   *
   * @param releaseEvery the configured release period (DP-HDB; DP-Linear publishes each of its releases)
   */
  List<ModelRelease> releasesAfterRound(int releaseEvery);

  static ServedBandit start(BanditSpec spec, KeyedNoiseSource noise) {
    if (spec instanceof DpHdbSpec hdb) {
      return new Hdb(DpHdbPolicy.start(hdb, noise));
    }
    if (spec instanceof DpLinearSpec linear) {
      return new Linear(DpLinearPolicy.start(linear, noise));
    }
    throw new IllegalArgumentException("policy: unknown bandit policy " + spec.policyName());
  }

  static ServedBandit restore(BanditSpec spec, byte[] state, KeyedNoiseSource noise) throws IOException {
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(state));
    if (spec instanceof DpHdbSpec hdb) {
      return new Hdb(DpHdbPolicy.restore(hdb, in, noise));
    }
    if (spec instanceof DpLinearSpec linear) {
      return new Linear(DpLinearPolicy.restore(linear, in, noise));
    }
    throw new IllegalArgumentException("policy: unknown bandit policy " + spec.policyName());
  }

  /** DP-HDB: every arm's parameters every k-th round. */
  record Hdb(DpHdbPolicy policy) implements ServedBandit {

    @Override
    public Decision decide(double[] context) {
      return policy.decide(context);
    }

    @Override
    public void update(Decision decision, double[] context, double reward) {
      policy.update(decision, context, reward);
    }

    @Override
    public long rounds() {
      return policy.rounds();
    }

    @Override
    public JointPrivacyLoss privacySpent() {
      return policy.privacySpent();
    }

    @Override
    public void writeState(DataOutput out) throws IOException {
      policy.writeState(out);
    }

    @Override
    public List<ModelRelease> releasesAfterRound(int releaseEvery) {
      if (policy.rounds() % releaseEvery != 0) {
        return List.of();
      }
      List<ModelRelease> releases = new ArrayList<>(policy.arms());
      for (int arm = 0; arm < policy.arms(); arm++) {
        releases.add(BanditReleases.of(policy, arm));
      }
      return releases;
    }
  }

  /** DP-Linear: every arm's ridge solution theta_k whenever the statistics were released (every k rounds). */
  record Linear(DpLinearPolicy policy) implements ServedBandit {

    @Override
    public Decision decide(double[] context) {
      return policy.decide(context);
    }

    @Override
    public void update(Decision decision, double[] context, double reward) {
      policy.update(decision, context, reward);
    }

    @Override
    public long rounds() {
      return policy.rounds();
    }

    @Override
    public JointPrivacyLoss privacySpent() {
      return policy.privacySpent();
    }

    @Override
    public void writeState(DataOutput out) throws IOException {
      policy.writeState(out);
    }

    @Override
    public List<ModelRelease> releasesAfterRound(int releaseEvery) {
      if (policy.rounds() % policy.spec().refreshEvery() != 0) {
        return List.of();
      }
      List<ModelRelease> releases = new ArrayList<>(policy.arms());
      for (int arm = 0; arm < policy.arms(); arm++) {
        releases.add(BanditReleases.of(policy, arm));
      }
      return releases;
    }
  }
}
