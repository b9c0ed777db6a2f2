package org.dpstream.core.online;

/** Opens the package-private plan caches of this package to {@link org.dpstream.core.FreshCaches}. */
public final class OnlineCaches {

  private OnlineCaches() {}

  public static void clear() {
    ChosenPlans.clearForTests();
    BltPlan.clearForTests();
    ExactBltPlan.clearForTests();
    VertexChoiceMemo.clearForTests();
    HistogramGrid.clearForTests();
  }
}
