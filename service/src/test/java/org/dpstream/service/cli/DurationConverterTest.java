package org.dpstream.service.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class DurationConverterTest {

  private final DurationConverter converter = new DurationConverter();

  @Test
  void readsHumanAndIsoDurations() {
    assertEquals(Duration.ofSeconds(90), converter.convert("90s"));
    assertEquals(Duration.ofMinutes(2), converter.convert("2m"));
    assertEquals(Duration.ofSeconds(90), converter.convert("1m30s"));
    assertEquals(Duration.ofHours(1), converter.convert("1H"));
    assertEquals(Duration.ofSeconds(45), converter.convert("PT45S"));
  }

  @Test
  void refusesWhatIsNotADuration() {
    assertThrows(CommandLine.TypeConversionException.class, () -> converter.convert("soon"));
    assertThrows(CommandLine.TypeConversionException.class, () -> converter.convert(""));
    assertThrows(CommandLine.TypeConversionException.class, () -> converter.convert("10"));
  }
}
