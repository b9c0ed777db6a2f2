package org.dpstream.service.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/** Reads durations as people type them: {@code 90s}, {@code 2m}, {@code 1m30s}, {@code 1h}, or ISO-8601 {@code PT90S}. */
public final class DurationConverter implements CommandLine.ITypeConverter<Duration> {

  private static final Pattern HUMAN = Pattern.compile("(?:(\\d+)h)?(?:(\\d+)m)?(?:(\\d+)s)?");

  @Override
  public Duration convert(String value) {
    String text = value.trim().toLowerCase(Locale.ROOT);
    Matcher matcher = HUMAN.matcher(text);
    if (!text.isEmpty() && matcher.matches()) {
      return Duration.ofHours(parse(matcher.group(1)))
          .plusMinutes(parse(matcher.group(2)))
          .plusSeconds(parse(matcher.group(3)));
    }
    try {
      return Duration.parse(value.trim());
    } catch (DateTimeParseException e) {
      throw new CommandLine.TypeConversionException(
          "'" + value + "' is not a duration; write e.g. 90s, 2m, 1m30s or PT90S");
    }
  }

  private static long parse(String digits) {
    return digits == null ? 0 : Long.parseLong(digits);
  }
}
