package org.dpstream.service.config;

import java.util.Locale;

/**
 * How a bandit publishes a release step on dp.releases (config {@code releaseFormat}). Both carry the same bits: the
 * step record is the per-arm records folded into one ({@link org.dpstream.service.release.BanditStepReleases}).
 */
public enum BanditReleaseFormat {
  /** One {@code BanditStepRelease} per step, key = bandit id: every arm, the extras and the joint ledger once. */
  STEP,
  /**
   * One {@code ModelRelease} per arm ({@code banditId/arm-i}) and per extra ({@code banditId/NAME}): for readers
   * that follow single arms by key, as every build before the step record published them.
   */
  ARMS;

  /** {@code step} (null: the default) or {@code arms}. */
  static BanditReleaseFormat parse(String text) {
    if (text == null) {
      return STEP;
    }
    return switch (text.strip().toLowerCase(Locale.ROOT)) {
      case "step" -> STEP;
      case "arms" -> ARMS;
      default -> throw new IllegalArgumentException("releaseFormat must be step or arms, got " + text);
    };
  }
}
