package org.dpstream.options;

import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * {@code --epsilon} (one or more, comma-separated) and {@code --delta} of an experiment over a grid of
 * privacy levels (bench ofw, erm). Use as a picocli {@code @Mixin}; call {@link #check} before using the values.
 */
public final class PrivacyGridOptions {

  @Option(names = "--epsilon", split = ",", paramLabel = "EPS", defaultValue = "1",
      description = "Privacy epsilon(s) > 0. Default: ${DEFAULT-VALUE}.")
  List<Double> epsilon;

  @Option(names = "--delta", paramLabel = "DELTA",
      description = "Privacy delta in (0, 1). Default: the papers' choice, 1/n^2 for n training records (erm),"
          + " 1/T for horizon T (ofw).")
  Double delta;

  /** Fails with a usage error naming the option if an epsilon is not positive and finite or delta not in (0, 1). */
  public void check(CommandSpec spec) {
    for (double value : epsilon) {
      PrivacyOptions.checkEpsilon(spec, value);
    }
    PrivacyOptions.checkDelta(spec, delta);
  }

  /** The epsilons in the order given (repeats included). */
  public List<Double> epsilons() {
    return List.copyOf(epsilon);
  }

  /** The given delta, or {@code null} when the option was not given. */
  public Double delta() {
    return delta;
  }
}
