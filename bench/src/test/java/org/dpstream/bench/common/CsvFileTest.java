package org.dpstream.bench.common;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvFileTest {

  @Test
  void theHeaderThenTheRowsEachEndedByANewlineReplacingTheFile(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("out.csv"), "an older, longer file\n\n\n");
    Path file = CsvFile.write(dir, "out.csv", "a,b", Stream.of("1,2", "3,µ"));
    assertEquals(dir.resolve("out.csv"), file);
    assertEquals("a,b\n1,2\n3,µ\n", Files.readString(file, StandardCharsets.UTF_8));
    assertEquals("a,b\n", Files.readString(CsvFile.write(dir, "empty.csv", "a,b", Stream.empty())));
  }
}
