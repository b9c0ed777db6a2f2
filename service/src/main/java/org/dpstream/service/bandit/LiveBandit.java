package org.dpstream.service.bandit;

import org.dpstream.bandit.PrivateBandit;
import org.dpstream.service.config.BanditRegistry;
import org.dpstream.service.release.NoiseGeneration;
import org.dpstream.service.routing.Placement;

/**
 * A bandit loaded in its task: its configuration, its home placement, its policy and state, the noise generation it
 * draws in, its stream time and its deadline index (rebuilt from the pending store at load). Dropped and reloaded from the
 * stores after a failed record.
 */
final class LiveBandit {
  final BanditRegistry.Entry entry;
  final Placement home;
  final ServedBandit served;
  final PrivateBandit policy;
  final NoiseGeneration generation;
  final BanditClock clock;
  final Deadlines deadlines;

  LiveBandit(BanditRegistry.Entry entry, Placement home, ServedBandit served, NoiseGeneration generation,
      BanditClock clock, Deadlines deadlines) {
    this.entry = entry;
    this.home = home;
    this.served = served;
    this.generation = generation;
    this.policy = served.policy();
    this.clock = clock;
    this.deadlines = deadlines;
  }

  String id() {
    return entry.spec().banditId();
  }
}
