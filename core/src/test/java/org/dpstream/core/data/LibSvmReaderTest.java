package org.dpstream.core.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.OptionalInt;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LibSvmReaderTest {

  @TempDir Path dir;

  private Path write(String name, String content) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, content);
    return file;
  }

  @Test
  void readsASparseFileWithOneBasedIndices() throws IOException {
    Path file = write("sparse.libsvm", "+1 1:0.5 3:-2\n\n-1 2:1e-3  # a comment\n0\n");
    SparseLabelledData data = LibSvmReader.read(file);
    assertEquals(3, data.size());
    assertEquals(3, data.dimension());
    assertEquals(3, data.nonZeros());
    assertArrayEquals(new double[] {0.5, 0, -2}, data.row(0).toDense(3));
    assertArrayEquals(new double[] {0, 0.001, 0}, data.row(1).toDense(3));
    assertArrayEquals(new double[] {0, 0, 0}, data.row(2).toDense(3));
    assertArrayEquals(new double[] {1, -1, 0}, data.toDense().labels());
  }

  @Test
  void aDeclaredDimensionPadsRows() throws IOException {
    SparseLabelledData data = LibSvmReader.read(write("d.svm", "1 2:3\n"), OptionalInt.of(5));
    assertEquals(5, data.dimension());
    assertArrayEquals(new double[] {0, 3, 0, 0, 0}, data.toDense().row(0));
  }

  @Test
  void readsADenseFileWrittenFromRandomData() throws IOException {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(42L);
    int n = 50;
    int d = 7;
    double[][] x = new double[n][d];
    double[] y = new double[n];
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < n; i++) {
      y[i] = rng.nextBoolean() ? 1 : -1;
      text.append(y[i] > 0 ? "+1" : "-1");
      for (int j = 0; j < d; j++) {
        x[i][j] = rng.nextDouble() * 10 - 5;
        text.append(' ').append(j + 1).append(':').append(String.format(Locale.ROOT, "%.17g", x[i][j]));
      }
      text.append('\n');
    }
    LabelledData data = LibSvmReader.read(write("dense.libsvm", text.toString())).toDense();
    assertEquals(n, data.size());
    assertEquals(d, data.dimension());
    for (int i = 0; i < n; i++) {
      assertArrayEquals(x[i], data.row(i));
      assertEquals(y[i], data.label(i));
    }
  }

  private MalformedDataException failure(String content) throws IOException {
    Path file = write("bad.libsvm", content);
    MalformedDataException e = assertThrows(MalformedDataException.class, () -> LibSvmReader.read(file, OptionalInt.of(4)));
    assertTrue(e.getMessage().startsWith(file + ", line " + e.lineNumber() + ": "), e.getMessage());
    return e;
  }

  @Test
  void errorsNameTheLine() throws IOException {
    MalformedDataException nan = failure("1 1:2\n-1 1:NaN\n");
    assertEquals(2, nan.lineNumber());
    assertTrue(nan.getMessage().contains("NaN"), nan.getMessage());

    MalformedDataException token = failure("1 1:2\n\n1 1:x2\n");
    assertEquals(3, token.lineNumber());
    assertTrue(token.getMessage().contains("'x2' is not a number"), token.getMessage());

    assertEquals(1, failure("1 0:2\n").lineNumber());
    assertTrue(failure("1 0:2\n").getMessage().contains("1-based"));
    assertEquals(2, failure("1 1:1\n1 3:1 2:1\n").lineNumber());
    assertTrue(failure("1 2:1 2:1\n").getMessage().contains("strictly increasing"));
    assertTrue(failure("1 5:1\n").getMessage().contains("beyond the declared dimension 4"));
    assertTrue(failure("1 1\n").getMessage().contains("expected index:value"));
    assertTrue(failure("abc 1:1\n").getMessage().contains("'abc' is not a number"));
    assertTrue(failure("1:2 2:1\n").getMessage().contains("must start with a label"));
    assertTrue(failure("1 qid:3 1:1\n").getMessage().contains("qid"));
    assertTrue(failure("inf 1:1\n").getMessage().contains("non-finite"));
    assertTrue(failure("\n\n").getMessage().contains("no records"));
  }
}
