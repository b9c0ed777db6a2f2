package org.dpstream.core.privacy.recorder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.dpstream.core.erm.DpSgd;
import org.dpstream.core.erm.ErmAlgorithm;
import org.dpstream.core.privacy.PrivatePrefixSums;
import org.dpstream.core.privacy.accounting.PaperTreeCalibration;
import org.dpstream.core.privacy.accounting.PrivacyCalibration;
import org.dpstream.core.privacy.tree.LatticePrefixSums;
import org.junit.jupiter.api.Test;

/**
 * Every mechanism of core has a sensitivity recorder: every {@link PrivacyCalibration} implementation (each privacy
 * map, so each mechanism family), and the entry points that add the noise: every {@link PrivatePrefixSums} (the
 * trees, the factorizations, adaptive clipping's blocks) and every {@link ErmAlgorithm} (DP-SGD, DP-CD, DP-SkGD,
 * output and objective perturbation). A new one fails here, named, until a {@link RecordedBy} test names it.
 */
class RecorderRegistryTest {

  static final List<Class<?>> CORE_MECHANISMS = List.of(PrivacyCalibration.class, PrivatePrefixSums.class,
      ErmAlgorithm.class);
  private static final String SYNTHETIC = "org.dpstream.core.privacy.recorder.unregistered";

  @Test
  void everyMechanismOfCoreHasARecorder() {
    MechanismRegistry.Scan scan = MechanismRegistry.scan(List.of("org.dpstream.core"), List.of(SYNTHETIC),
        CORE_MECHANISMS);
    assertTrue(scan.mechanisms().containsAll(List.of(PaperTreeCalibration.class.getName(), DpSgd.class.getName(),
        LatticePrefixSums.class.getName())), "the scan found the mechanisms: " + scan.mechanisms());
    assertTrue(scan.unrecorded().isEmpty(), "mechanisms without a sensitivity recorder (@RecordedBy): "
        + scan.unrecorded());
  }

  @Test
  void theCheckNamesAMechanismWithoutARecorderAndOnlyIt() {
    List<String> unrecorded = MechanismRegistry.unrecorded(List.of(SYNTHETIC), List.of(), CORE_MECHANISMS);
    assertEquals(List.of(SYNTHETIC + ".UnrecordedCalibration"), unrecorded);
  }
}
