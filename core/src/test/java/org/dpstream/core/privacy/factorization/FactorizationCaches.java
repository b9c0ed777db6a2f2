package org.dpstream.core.privacy.factorization;

/** Opens the package-private strategy cache of this package to {@link org.dpstream.core.FreshCaches}. */
public final class FactorizationCaches {

  private FactorizationCaches() {}

  public static void clear() {
    BltOptimizer.clearForTests();
  }
}
