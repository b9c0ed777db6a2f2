package org.dpstream.core.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.data.CsvReader.LabelColumn;
import org.dpstream.core.data.CsvReader.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvReaderTest {

  @TempDir Path dir;

  private Path write(String name, String content) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, content);
    return file;
  }

  @Test
  void readsAHeaderAndFindsTheLabelColumnByName() throws IOException {
    Path file = write("a.csv", "x1,label,x2\n1.5,1,-2\n\n0,0,3e2\n");
    LabelledData data = CsvReader.read(file, Options.defaults());
    assertEquals(2, data.size());
    assertEquals(2, data.dimension());
    assertArrayEquals(new double[] {1.5, -2}, data.row(0));
    assertArrayEquals(new double[] {0, 300}, data.row(1));
    assertArrayEquals(new double[] {1, 0}, data.labels());
  }

  @Test
  void labelColumnByNamePositionOrLastWithOtherDelimiters() throws IOException {
    Path file = write("b.csv", "\"a\";\"b\";\"target2\"\n1;2;3\n4;5;6\n");
    Options semicolon = Options.defaults().withDelimiter(';');
    assertArrayEquals(new double[] {3, 6},
        CsvReader.read(file, semicolon.withLabelColumn(LabelColumn.parse("TARGET2"))).labels());
    assertArrayEquals(new double[] {2, 5}, CsvReader.read(file, semicolon.withLabelColumn(LabelColumn.parse("1"))).labels());
    assertArrayEquals(new double[] {3, 6}, CsvReader.read(file, semicolon.withLabelColumn(LabelColumn.parse("last"))).labels());
    assertArrayEquals(new double[] {1, 4}, CsvReader.read(file, semicolon).labels());
    Path tsv = write("c.tsv", "1\t2\n3\t4\n");
    LabelledData noHeader = CsvReader.read(tsv, Options.defaults().withHeader(false).withDelimiter('\t'));
    assertArrayEquals(new double[] {1, 3}, noHeader.labels());
    assertArrayEquals(new double[] {4}, noHeader.row(1));
  }

  @Test
  void roundTripsRandomData() throws IOException {
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(7L);
    StringBuilder text = new StringBuilder("y,f1,f2,f3\n");
    double[][] x = new double[30][3];
    for (int i = 0; i < 30; i++) {
      text.append(i % 2);
      for (int j = 0; j < 3; j++) {
        x[i][j] = rng.nextDouble() * 200 - 100;
        text.append(',').append(String.format(Locale.ROOT, "%.17g", x[i][j]));
      }
      text.append('\n');
    }
    LabelledData data = CsvReader.read(write("r.csv", text.toString()), Options.defaults());
    for (int i = 0; i < 30; i++) {
      assertArrayEquals(x[i], data.row(i));
      assertEquals(i % 2, data.label(i));
    }
  }

  @Test
  void aPersonColumnIsReadAsTextNotAsAFeatureAndBlankMeansNoPerson() throws IOException {
    Path file = write("persons.csv", "label,user,a,b\n1,ann,2,3\n0,,4,5\n1,\"bo\",6,7\n");
    CsvReader.PersonRecords records = CsvReader.readWithPersons(file,
        Options.defaults().withPersonColumn(LabelColumn.parse("user")));
    assertArrayEquals(new String[] {"ann", null, "bo"}, records.persons());
    assertEquals(2, records.data().dimension());
    assertArrayEquals(new double[] {4, 5}, records.data().row(1));
    assertArrayEquals(new double[] {1, 0, 1}, records.data().labels());

    MalformedDataException same = failure("label,user,a\n1,ann,2\n",
        Options.defaults().withPersonColumn(LabelColumn.parse("label")));
    assertTrue(same.getMessage().contains("the person column is the label column"), same.getMessage());
    MalformedDataException unknown = failure("label,a,b\n1,2,3\n",
        Options.defaults().withPersonColumn(LabelColumn.parse("user")));
    assertTrue(unknown.getMessage().contains("no column named 'user'"), unknown.getMessage());
  }

  private MalformedDataException failure(String content, Options options) throws IOException {
    Path file = write("bad.csv", content);
    MalformedDataException e = assertThrows(MalformedDataException.class, () -> CsvReader.read(file, options));
    assertTrue(e.getMessage().startsWith(file + ", line " + e.lineNumber() + ": "), e.getMessage());
    return e;
  }

  @Test
  void errorsNameTheLine() throws IOException {
    Options defaults = Options.defaults();
    MalformedDataException ragged = failure("label,a,b\n1,2,3\n0,1\n", defaults);
    assertEquals(3, ragged.lineNumber());
    assertTrue(ragged.getMessage().contains("ragged row: 2 fields, but line 1 has 3"), ragged.getMessage());

    MalformedDataException nan = failure("label,a,b\n1,2,3\n\n0,NaN,1\n", defaults);
    assertEquals(4, nan.lineNumber());
    assertTrue(nan.getMessage().contains("column 2 ('a') is NaN"), nan.getMessage());

    MalformedDataException token = failure("label,a\n1,2\n1,0x10\n", defaults);
    assertEquals(3, token.lineNumber());
    assertTrue(token.getMessage().contains("'0x10' is not a number"), token.getMessage());

    assertTrue(failure("1,2\n3,\n", defaults.withHeader(false)).getMessage().contains("column 2 is empty"));
    assertTrue(failure("1,-Infinity\n", defaults.withHeader(false)).getMessage().contains("non-finite"));
    assertTrue(failure("a,b\n1,2\n", defaults.withLabelColumn(new LabelColumn.Named("z"))).getMessage()
        .contains("no column named 'z'"));
    assertTrue(failure("1;2\n", defaults).getMessage().contains("delimiter"));
    assertTrue(failure("a,b\n", defaults).getMessage().contains("no records"));
    assertTrue(failure("1,2\n", defaults.withHeader(false).withLabelColumn(new LabelColumn.At(5))).getMessage()
        .contains("outside"));
  }
}
