package org.dpstream.options;

import java.util.Objects;
import java.util.function.Function;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The base of the enum-typed options' converters: picocli converts the text once with the type's own parser
 * (the names and aliases it accepts, its message), and reports a value it refuses as a usage error naming
 * the option and the value ({@code Invalid value for option '--accountant' (ACC): ...}).
 */
public abstract class ParsingConverter<T> implements ITypeConverter<T> {

  private final Function<String, T> parser;

  protected ParsingConverter(Function<String, T> parser) {
    this.parser = Objects.requireNonNull(parser, "parser");
  }

  @Override
  public T convert(String value) {
    try {
      return parser.apply(value);
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(e.getMessage());
    }
  }
}
