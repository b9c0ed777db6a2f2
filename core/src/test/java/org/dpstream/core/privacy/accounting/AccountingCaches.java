package org.dpstream.core.privacy.accounting;

/** Opens the package-private memos of this package to {@link org.dpstream.core.FreshCaches}. */
public final class AccountingCaches {

  private AccountingCaches() {}

  public static void clear() {
    ZeroConcentratedDp.clearForTests();
    GaussianTreeCalibration.clearForTests();
  }
}
