package org.dpstream.core.privacy.accounting;

/** Opens the package-private memo of this package to {@link org.dpstream.core.FreshCaches}. */
public final class AccountingCaches {

  private AccountingCaches() {}

  public static void clear() {
    ZeroConcentratedDp.clearForTests();
  }
}
