package org.dpstream.core.privacy.recorder.unregistered;

import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.accounting.PrivacyCalibration;

/** A one-step calibration of (1, 0), for the registry's own test (abstract: not a mechanism itself). */
abstract class SyntheticCalibration implements PrivacyCalibration {

  @Override
  public String accountant() {
    return getClass().getSimpleName();
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
