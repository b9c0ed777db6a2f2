package org.dpstream.bandit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.dpstream.bandit.hdb.DpHdbPolicy;
import org.dpstream.bandit.linear.DpLinearPolicy;
import org.dpstream.bandit.ucb.DpUcbPolicy;
import org.dpstream.core.privacy.accounting.PrivacyCalibration;
import org.dpstream.core.privacy.recorder.MechanismRegistry;
import org.junit.jupiter.api.Test;

/**
 * Every private bandit has a sensitivity recorder: each {@link PrivateBandit} implementation (DP-Linear, the default
 * wherever its statistics fit, and DP-HDB), every other {@link BanditPolicy} (DP-UCB, the experiments' baseline)
 * outside the non-private baselines' package, and any {@link PrivacyCalibration} of this module, is named by a
 * {@code RecordedBy} test, or this test names it. Core's mechanisms are core's RecorderRegistryTest's.
 */
class BanditRecorderRegistryTest {

  @Test
  void everyPrivateBanditHasARecorder() {
    // The baselines (greedy ridge, uniform random) draw no noise and claim no privacy.
    MechanismRegistry.Scan scan = MechanismRegistry.scan(List.of("org.dpstream.bandit"),
        List.of("org.dpstream.bandit.baseline"), List.of(PrivateBandit.class, BanditPolicy.class, PrivacyCalibration.class));
    assertTrue(scan.mechanisms().containsAll(List.of(DpLinearPolicy.class.getName(), DpHdbPolicy.class.getName(),
            DpUcbPolicy.class.getName())),
        "the scan found the bandits: " + scan.mechanisms());
    assertTrue(scan.unrecorded().isEmpty(), "bandits without a sensitivity recorder (@RecordedBy): "
        + scan.unrecorded());
  }
}
