package org.dpstream.options;

import java.util.function.Supplier;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * Option validation shared by the commands: a failed check is a picocli {@link ParameterException}, so
 * the user sees the message and the command's usage and gets a non-zero exit code.
 */
public final class OptionChecks {

  private OptionChecks() {}

  public static void require(CommandSpec spec, boolean condition, String message) {
    if (!condition) {
      throw new ParameterException(spec.commandLine(), message);
    }
  }

  /** Runs a parser and turns its IllegalArgumentException into an error naming the option. */
  public static <T> T parse(CommandSpec spec, Supplier<T> parser, String option) {
    try {
      return parser.get();
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), option + ": " + e.getMessage());
    }
  }
}
