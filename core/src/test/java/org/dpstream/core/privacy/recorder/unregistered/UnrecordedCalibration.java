package org.dpstream.core.privacy.recorder.unregistered;

import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.PrivacyCalibration;

/** A calibration no recorder names: the registry's check must find it (RecorderRegistryTest). */
final class UnrecordedCalibration implements PrivacyCalibration {

  @Override
  public String accountant() {
    return "unrecorded";
  }

  @Override
  public PrivacyBudget budget() {
    return new PrivacyBudget(1, 0);
  }

  @Override
  public long horizon() {
    return 1;
  }

  @Override
  public PrivacyBudget spentAfter(long step) {
    return budget();
  }
}
