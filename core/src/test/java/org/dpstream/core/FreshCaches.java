package org.dpstream.core;

import org.dpstream.core.online.OnlineCaches;
import org.dpstream.core.privacy.accounting.AccountingCaches;
import org.dpstream.core.privacy.factorization.FactorizationCaches;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Empties core's static caches (plans, BLT strategies, vertex choices, histogram grids, tree calibrations, noise laws, the last tight
 * zCDP conversion) before every JUnit Jupiter test class; {@link FreshCachesForJqwik} does the same for jqwik's. Both
 * engines find them through {@code META-INF/services}; this one imports nothing of jqwik, so a module whose tests read
 * core's test classes without jqwik still loads it.
 *
 * <p>Why: PIT runs every mutant of a class in one JVM, hot-swapping the mutated code in. A cache filled under an
 * earlier mutant would hand its plan to the tests of a later one, so a mutant in plan construction would look
 * unkilled (or a correct build could look broken). Emptying per test class is enough, since PIT starts the class
 * afresh for each mutant, and is the least intrusive way: production code keeps its caches unchanged and gains only a
 * package-private {@code clearForTests()} per cache. A fresh JVM per mutant is not an option PIT offers.
 */
public final class FreshCaches implements BeforeAllCallback {

  public FreshCaches() {}

  public static void clearAll() {
    OnlineCaches.clear();
    FactorizationCaches.clear();
    AccountingCaches.clear();
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    clearAll();
  }
}
