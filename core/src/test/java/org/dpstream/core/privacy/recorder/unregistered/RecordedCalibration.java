package org.dpstream.core.privacy.recorder.unregistered;

import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.PrivacyCalibration;

/** A calibration a recorder names ({@link RecordedCalibrationRecorder}): the registry's check must accept it. */
final class RecordedCalibration implements PrivacyCalibration {

  @Override
  public String accountant() {
    return "recorded";
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
