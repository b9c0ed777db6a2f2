package org.dpstream.bandit.release;

import java.util.Set;
import java.util.function.Supplier;
import org.dpstream.bandit.Decision;
import org.dpstream.core.privacy.random.NoiseStream;

/**
 * A policy's decision rule as a pure function of what was released: the same (release, context,
 * request noise) always gives the same decision, so a replayed request is decided identically and any
 * number of deciders agree. One implementation per policy family, shared by the learning policy and
 * the decider (never a copy).
 */
public interface DecisionRule {

  /** The algorithm family of the releases this rule reads (the part of the release's algorithm before '/'). */
  String algorithm();

  /**
   * The extra released vectors ({@link ReleasedBandit#extras}) a decision at {@code step} reads; none by
   * default. A decider uses the latest release of each, so an extra must be fixed once released (DP-HDB's
   * frozen forced-sampling estimators are).
   */
  default Set<String> extrasNeeded(long step) {
    return Set.of();
  }

  /**
   * Chooses an arm for {@code context} from {@code released} alone.
   *
   * @param requestNoise the request's own keyed noise stream (derived from the noise key and the request
   *     id), for rules that explore at random; a rule that does not explore never calls it
   * @throws IllegalArgumentException on a context of the wrong dimension or with non-finite values, or a
   *     release this rule cannot read
   */
  Decision decide(ReleasedBandit released, double[] context, Supplier<NoiseStream> requestNoise);
}
