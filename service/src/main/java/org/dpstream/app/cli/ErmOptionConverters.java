package org.dpstream.app.cli;

import java.util.function.Function;
import org.dpstream.core.erm.training.ErmSettings;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Enum-typed ERM options ({@code --loss}, {@code --reg}): picocli converts the text once, with the names and
 * aliases of {@link ErmSettings}, and reports a bad value as a usage error naming the option.
 */
public final class ErmOptionConverters {

  private ErmOptionConverters() {}

  /** {@code --loss}: logistic or squared (also square, least-squares). */
  public static final class LossConverter implements ITypeConverter<ErmSettings.Loss> {
    @Override
    public ErmSettings.Loss convert(String value) {
      return converted(value, ErmSettings.Loss::parse);
    }
  }

  /** {@code --reg}: none, l2, l1 or elastic-net. */
  public static final class RegConverter implements ITypeConverter<ErmSettings.Reg> {
    @Override
    public ErmSettings.Reg convert(String value) {
      return converted(value, ErmSettings.Reg::parse);
    }
  }

  private static <T> T converted(String value, Function<String, T> parser) {
    try {
      return parser.apply(value);
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(e.getMessage());
    }
  }
}
