package org.dpstream.options;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * {@code --epsilon} and {@code --delta} of a command that runs at one privacy level (train, bench bandit).
 * Use as a picocli {@code @Mixin}; call {@link #check} before using the values.
 */
public final class PrivacyOptions {

  @Option(names = "--epsilon", paramLabel = "EPS", defaultValue = "1",
      description = "Privacy epsilon > 0. Default: ${DEFAULT-VALUE}.")
  double epsilon;

  @Option(names = "--delta", paramLabel = "DELTA",
      description = "Privacy delta in (0, 1). Default: the papers' choice, 1/n^2 for n training records (train, erm),"
          + " 1/T for T rounds (bandit, ofw).")
  Double delta;

  /** Fails with a usage error naming the option if epsilon is not positive and finite or delta not in (0, 1). */
  public void check(CommandSpec spec) {
    checkEpsilon(spec, epsilon);
    checkDelta(spec, delta);
  }

  public double epsilon() {
    return epsilon;
  }

  /** The given delta, or {@code ifAbsent} when the option was not given. */
  public double delta(double ifAbsent) {
    return delta != null ? delta : ifAbsent;
  }

  /** Whether --delta was given. */
  public boolean hasDelta() {
    return delta != null;
  }

  static void checkEpsilon(CommandSpec spec, double value) {
    OptionChecks.require(spec, value > 0 && Double.isFinite(value), "--epsilon: must be positive and finite, got " + value);
  }

  static void checkDelta(CommandSpec spec, Double value) {
    OptionChecks.require(spec, value == null || (value > 0 && value < 1), "--delta: must be in (0, 1), got " + value);
  }
}
