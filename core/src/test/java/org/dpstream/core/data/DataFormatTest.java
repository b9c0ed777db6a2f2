package org.dpstream.core.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class DataFormatTest {

  @Test
  void aNamedFormatWinsOverTheFileName() {
    assertEquals(DataFormat.CSV, DataFormat.resolve(" CSV ", Path.of("x.libsvm")));
    assertEquals(DataFormat.LIBSVM, DataFormat.resolve("libsvm", Path.of("x.csv")));
    assertEquals(DataFormat.LIBSVM, DataFormat.resolve("svmlight", Path.of("x")));
  }

  @Test
  void autoTellsTheFormatFromTheName() {
    assertEquals(DataFormat.CSV, DataFormat.resolve("auto", Path.of("dir/data.tsv")));
    assertEquals(DataFormat.LIBSVM, DataFormat.resolve("Auto", Path.of("data.svm")));
    IllegalArgumentException unknown =
        assertThrows(IllegalArgumentException.class, () -> DataFormat.resolve("auto", Path.of("dir/data.txt")));
    assertEquals("cannot tell the format of data.txt from its name; say csv or libsvm", unknown.getMessage());
  }

  @Test
  void anotherNameSaysWhatWasExpected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> DataFormat.resolve("parquet", Path.of("x.csv")));
    assertEquals("expected csv, libsvm or auto, got 'parquet'", e.getMessage());
  }
}
