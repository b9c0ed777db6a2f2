package org.dpstream.service.decide.follower;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.dpstream.bandit.release.ReleasedBandit;

/**
 * The latest assembled release of every configured bandit, shared between the follower thread that
 * writes it and the deciding threads that read it. Each value is immutable and replaced whole, so a
 * decision always reads one consistent step.
 */
public final class ReleasedBandits {

  private final Map<String, ReleasedBandit> latest = new ConcurrentHashMap<>();

  /** Keeps {@code released} unless a later step of its bandit is kept already. */
  public void publish(ReleasedBandit released) {
    latest.merge(released.banditId(), released, (old, now) -> now.step() > old.step() ? now : old);
  }

  /**
   * Replaces the bandit's release with {@code initial}, whatever its step: the bandit started again in a new noise
   * generation, whose steps count from 1 again.
   */
  public void restart(ReleasedBandit initial) {
    latest.put(initial.banditId(), initial);
  }

  /** The latest release of a bandit, empty if it is not configured. */
  public Optional<ReleasedBandit> latest(String banditId) {
    return Optional.ofNullable(latest.get(banditId));
  }
}
