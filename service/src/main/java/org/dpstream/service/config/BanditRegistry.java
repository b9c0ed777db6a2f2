package org.dpstream.service.config;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import org.dpstream.bandit.BanditSpec;
import org.dpstream.bandit.hdb.DpHdbSpec;

/** The configured bandits, looked up by the bandit id their contexts and rewards are keyed with. */
public final class BanditRegistry {

  /**
   * A bandit's spec and its service settings.
   *
   * @param defaultReward the imputed reward (NaN with {@link BanditConfig.MissingReward#DROP})
   * @param noiseGeneration its noise generation (0 unless declared)
   * @param unit whom its guarantee protects: one round ({@link PrivacyUnit#EVENT}) or one person's up to k rounds
   */
  public record Entry(BanditSpec spec, Duration rewardTimeout, BanditConfig.MissingReward missingReward,
      double defaultReward, int releaseEvery, int noiseGeneration, PrivacyUnit unit, BanditReleaseFormat releaseFormat) {

    /** A bandit publishing one record per release step ({@link BanditReleaseFormat#STEP}). */
    public Entry(BanditSpec spec, Duration rewardTimeout, BanditConfig.MissingReward missingReward,
        double defaultReward, int releaseEvery, int noiseGeneration, PrivacyUnit unit) {
      this(spec, rewardTimeout, missingReward, defaultReward, releaseEvery, noiseGeneration, unit,
          BanditReleaseFormat.STEP);
    }

    /** An event-level bandit. */
    public Entry(BanditSpec spec, Duration rewardTimeout, BanditConfig.MissingReward missingReward,
        double defaultReward, int releaseEvery, int noiseGeneration) {
      this(spec, rewardTimeout, missingReward, defaultReward, releaseEvery, noiseGeneration, PrivacyUnit.EVENT);
    }

    /** A bandit of noise generation 0. */
    public Entry(BanditSpec spec, Duration rewardTimeout, BanditConfig.MissingReward missingReward,
        double defaultReward, int releaseEvery) {
      this(spec, rewardTimeout, missingReward, defaultReward, releaseEvery, 0);
    }

    /** The model id of arm i's releases: {@code banditId/arm-i}. */
    public String armModelId(int arm) {
      return spec.armModelId(arm);
    }

    /** The DP-HDB spec of a {@code policy: dp-hdb} bandit. */
    public DpHdbSpec hdb() {
      if (spec instanceof DpHdbSpec hdb) {
        return hdb;
      }
      throw new IllegalStateException("bandit " + spec.banditId() + " runs policy " + spec.policyName());
    }
  }

  private final Map<String, Entry> byId;

  public BanditRegistry(Map<String, Entry> byId) {
    this.byId = Map.copyOf(byId);
  }

  public static BanditRegistry empty() {
    return new BanditRegistry(Map.of());
  }

  public Optional<Entry> find(String banditId) {
    return Optional.ofNullable(byId.get(banditId));
  }

  public Collection<Entry> all() {
    return byId.values();
  }

  public boolean isEmpty() {
    return byId.isEmpty();
  }
}
