package org.dpstream.service.bandit;

import org.dpstream.core.privacy.accounting.PrivacyBudgetExceededException;
import org.apache.kafka.streams.KeyValue;
import org.dpstream.service.config.BanditConfig;
import org.dpstream.service.metrics.BanditMetrics;
import org.dpstream.service.noise.PlacedStateStore;

/**
 * What ends a pending request: its reward joins it into one round, or its deadline passes and the missing-reward
 * policy drops it or imputes the public default reward. A round updates the policy, writes the state and then sends
 * the arms' releases when the policy says so, in that order: a round that throws half-way has written and published
 * nothing, so its noise coordinates are still unpublished when the bandit is reloaded.
 */
final class Rounds {

  /** Where a round's releases go: the record's key and value (a step record or an arm's), stamped by the caller. */
  @FunctionalInterface
  interface ReleaseSink {
    void send(String key, Object release);
  }

  /** How a refused reward is rejected: the record being processed, or a held one. */
  @FunctionalInterface
  interface Refusal {
    void reject(String reason, String message);
  }

  private final PlacedStateStore placedStates;
  private final PendingRequests pendingRequests;
  private final BanditMetrics metrics;
  private final ReleaseSink releases;

  Rounds(PlacedStateStore placedStates, PendingRequests pendingRequests, BanditMetrics metrics, ReleaseSink releases) {
    this.placedStates = placedStates;
    this.pendingRequests = pendingRequests;
    this.metrics = metrics;
    this.releases = releases;
  }

  /** A pending request's reward {@code r}: one round learnt and the request completed, or the reward refused. */
  void join(LiveBandit bandit, RequestKey key, PendingRequest request, double r, Refusal refusal) {
    try {
      bandit.entry.spec().requireReward(r);
    } catch (IllegalArgumentException e) {
      refusal.reject(BanditRejection.INVALID_REWARD.name(), e.getMessage());
      return;
    }
    try {
      learn(bandit, request, r);
    } catch (PrivacyBudgetExceededException e) {
      refusal.reject(BanditRejection.BUDGET_EXHAUSTED.name(), e.getMessage());
      return;
    }
    pendingRequests.complete(bandit.id(), key, request, PendingRequest.Status.JOINED, bandit.deadlines);
    metrics.joined(bandit.id(), r, bandit.policy.rounds(), bandit.policy.privacySpent());
  }

  /** A pending request past its deadline: the missing-reward policy, drop (no round) or impute (one round). */
  void expire(LiveBandit bandit, RequestKey key, PendingRequest request) {
    boolean imputed = false;
    if (bandit.entry.missingReward() == BanditConfig.MissingReward.IMPUTE) {
      try {
        learn(bandit, request, bandit.entry.defaultReward());
        imputed = true;
      } catch (PrivacyBudgetExceededException e) {
        // No budget for the imputed round: the decision is dropped instead (counted as such).
      }
    }
    pendingRequests.complete(bandit.id(), key, request, PendingRequest.Status.EXPIRED, bandit.deadlines);
    metrics.expired(bandit.id(), imputed, bandit.policy.rounds(), bandit.policy.privacySpent());
  }

  /** One round, the state written and the arms' parameters released when the policy says so. */
  private void learn(LiveBandit bandit, PendingRequest request, double reward) {
    bandit.policy.update(request.decision(), request.context(), reward);
    placedStates.write(bandit.id(), bandit.home, bandit.generation, bandit.policy::writeState);
    for (KeyValue<String, Object> release : BanditReleases.published(
        bandit.served.releasesAfterRound(bandit.entry.releaseEvery()), bandit.generation, bandit.entry)) {
      releases.send(release.key, release.value);
    }
  }
}
