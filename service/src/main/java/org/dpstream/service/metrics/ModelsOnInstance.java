package org.dpstream.service.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;

/**
 * The public state of every model this instance runs, and the per-instance gauges over them: models by status and
 * histograms over models (cumulative counts of the models whose value is at most each bound). They carry the
 * signal of any number of models in a fixed number of series.
 */
final class ModelsOnInstance {

  /** What the metrics know of a model: values of its releases and ledger only. */
  static final class Model {
    volatile double step = Double.NaN;
    volatile double epoch = Double.NaN;
    volatile double epsilonSpent = Double.NaN;
    volatile double epsilonBudget = Double.NaN;
    volatile double clipRate = Double.NaN;
    volatile boolean budgetExhausted;

    double budgetSpentFraction() {
      return epsilonSpent / epsilonBudget;
    }
  }

  /** A model's status on this instance. */
  enum Status {
    LEARNING, BUDGET_EXHAUSTED;

    String tag() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  static final double[] BUDGET_BOUNDS = {0.25, 0.5, 0.75, 0.9, 1, Double.POSITIVE_INFINITY};
  static final double[] CLIP_RATE_BOUNDS = {0.1, 0.25, 0.5, 0.75, 0.9, 1};

  private final Map<String, Model> models = new ConcurrentHashMap<>();

  ModelsOnInstance(MeterRegistry registry) {
    for (Status status : Status.values()) {
      Gauge.builder("dpstream.models", models, all -> count(all.values(), status))
          .tag("status", status.tag())
          .description("models this instance runs, by status (budget_exhausted: the ledger refused a step)")
          .register(registry);
    }
    histogram(registry, "dpstream.models.by.budget.spent", BUDGET_BOUNDS, Model::budgetSpentFraction,
        "models this instance runs whose epsilon spent / budget is at most the bound");
    histogram(registry, "dpstream.models.by.clip.rate", CLIP_RATE_BOUNDS, m -> m.clipRate,
        "adaptive-clipping models this instance runs whose released clipping rate is at most the bound");
  }

  private void histogram(MeterRegistry registry, String name, double[] bounds, ToDoubleFunction<Model> value,
      String description) {
    for (double bound : bounds) {
      Gauge.builder(name, models, all -> countAtMost(all.values(), value, bound))
          .tag("at_most", bound == Double.POSITIVE_INFINITY ? "+Inf" : Double.toString(bound))
          .description(description).register(registry);
    }
  }

  Model model(String modelId) {
    return models.computeIfAbsent(modelId, id -> new Model());
  }

  /** Forgets a model; true if it was known. */
  boolean forget(String modelId) {
    return models.remove(modelId) != null;
  }

  private static double count(Collection<Model> all, Status status) {
    boolean exhausted = status == Status.BUDGET_EXHAUSTED;
    return all.stream().filter(m -> m.budgetExhausted == exhausted).count();
  }

  /** Models whose value is at most {@code bound}; NaN (no value yet) counts nowhere. */
  private static double countAtMost(Collection<Model> all, ToDoubleFunction<Model> value, double bound) {
    return all.stream().filter(m -> value.applyAsDouble(m) <= bound).count();
  }
}
