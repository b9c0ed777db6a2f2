package org.dpstream.core.data;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Reads dense numeric CSV: one record per line, the same number of fields on every line, one of them the
 * label and the others the features in column order. Fields may be wrapped in double quotes (no embedded
 * delimiters or quotes); blank lines are ignored. With a header, the label column can be named.
 *
 * <p>Every problem is a {@link MalformedDataException} naming the line: a ragged row (a field count other
 * than the first row's), a field that is not a finite decimal number (NaN and infinities included), an
 * unknown label column.
 *
 * <p>Optionally one more column names the person each record belongs to ({@link Options#personColumn}): it is read
 * as text, not a feature, and a blank field means the record has no person ({@link #readWithPersons}).
 */
public final class CsvReader {

  /** Which column holds the label. */
  public sealed interface LabelColumn {
    /** By header name (needs a header); matched case-insensitively after trimming. */
    record Named(String name) implements LabelColumn {
      public Named {
        Objects.requireNonNull(name, "name");
      }
    }

    /** By 0-based position; negative counts from the end (-1 = last column). */
    record At(int index) implements LabelColumn {}

    /** The first column. */
    static LabelColumn first() {
      return new At(0);
    }

    /** The last column. */
    static LabelColumn last() {
      return new At(-1);
    }

    /**
     * From command-line text: {@code first}, {@code last}, a 0-based integer, or else a header name.
     */
    static LabelColumn parse(String text) {
      String t = text.strip();
      if (t.equalsIgnoreCase("first")) {
        return first();
      }
      if (t.equalsIgnoreCase("last")) {
        return last();
      }
      if (t.matches("-?\\d+")) {
        return new At(Integer.parseInt(t));
      }
      return new Named(t);
    }
  }

  /**
   * @param header whether the first non-blank line names the columns
   * @param labelColumn the label's column; null means the column named {@code label} (or {@code y},
   *     {@code target}, {@code class}) if the header has one, else the first column
   * @param delimiter the field separator, e.g. ',' or ';' or '\t'
   * @param personColumn the column of the person's id (text, not a feature), or null for none
   */
  public record Options(boolean header, LabelColumn labelColumn, char delimiter, LabelColumn personColumn) {
    /** Comma-separated, with a header, label column found by name or else the first, no person column. */
    public static Options defaults() {
      return new Options(true, null, ',', null);
    }

    public Options withHeader(boolean value) {
      return new Options(value, labelColumn, delimiter, personColumn);
    }

    public Options withLabelColumn(LabelColumn value) {
      return new Options(header, value, delimiter, personColumn);
    }

    public Options withDelimiter(char value) {
      return new Options(header, labelColumn, value, personColumn);
    }

    public Options withPersonColumn(LabelColumn value) {
      return new Options(header, labelColumn, delimiter, value);
    }
  }

  /**
   * Records with the person of each.
   *
   * @param persons the person of each record (the field as read, stripped), null where the field is blank
   */
  public record PersonRecords(LabelledData data, String[] persons) {}

  private static final List<String> LABEL_NAMES = List.of("label", "y", "target", "class");

  private CsvReader() {}

  public static LabelledData read(Path file, Options options) throws IOException {
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      return read(reader, file.toString(), options);
    }
  }

  /** Reads from a reader; {@code source} names it in error messages. */
  public static LabelledData read(Reader reader, String source, Options options) throws IOException {
    return readWithPersons(reader, source, options).data();
  }

  /** Reads the records and, with {@link Options#personColumn}, the person of each (else all null). */
  public static PersonRecords readWithPersons(Path file, Options options) throws IOException {
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      return readWithPersons(reader, file.toString(), options);
    }
  }

  /** Reads from a reader; {@code source} names it in error messages. */
  public static PersonRecords readWithPersons(Reader reader, String source, Options options) throws IOException {
    BufferedReader in = reader instanceof BufferedReader b ? b : new BufferedReader(reader);
    String separator = java.util.regex.Pattern.quote(String.valueOf(options.delimiter()));
    List<double[]> rows = new ArrayList<>();
    List<Double> labels = new ArrayList<>();
    List<String> persons = new ArrayList<>();
    List<String> names = null;
    int columns = -1;
    int labelIndex = -1;
    int personIndex = -1;
    long lineNumber = 0;
    long firstLine = 0;
    String line;
    while ((line = in.readLine()) != null) {
      lineNumber++;
      if (lineNumber == 1 && line.startsWith("\uFEFF")) {
        line = line.substring(1);
      }
      if (line.isBlank()) {
        continue;
      }
      String[] fields = line.split(separator, -1);
      for (int k = 0; k < fields.length; k++) {
        fields[k] = unquote(fields[k].strip());
      }
      if (columns < 0) {
        columns = fields.length;
        firstLine = lineNumber;
        int least = options.personColumn() == null ? 2 : 3;
        if (columns < least) {
          throw new MalformedDataException(source, lineNumber, "need a label column"
              + (least == 3 ? ", a person column" : "") + " and at least one feature column,"
              + " found " + columns + " field(s) (is the delimiter '" + printable(options.delimiter()) + "' right?)");
        }
        if (options.header()) {
          names = List.of(fields);
          labelIndex = labelIndex(options.labelColumn(), names, columns, source, lineNumber);
          personIndex = personIndex(options.personColumn(), names, columns, labelIndex, source, lineNumber);
          continue;
        }
        labelIndex = labelIndex(options.labelColumn(), null, columns, source, lineNumber);
        personIndex = personIndex(options.personColumn(), null, columns, labelIndex, source, lineNumber);
      }
      if (fields.length != columns) {
        throw new MalformedDataException(source, lineNumber, "ragged row: " + fields.length + " fields, but line "
            + firstLine + " has " + columns);
      }
      double[] features = new double[columns - (personIndex < 0 ? 1 : 2)];
      double label = 0;
      persons.add(personIndex < 0 || fields[personIndex].isEmpty() ? null : fields[personIndex]);
      for (int k = 0, j = 0; k < columns; k++) {
        if (k == personIndex) {
          continue;
        }
        String what = names != null ? "column " + (k + 1) + " ('" + Numbers.abbreviate(names.get(k)) + "')"
            : "column " + (k + 1);
        double value = Numbers.parse(fields[k], what, source, lineNumber);
        if (k == labelIndex) {
          label = value;
        } else {
          features[j++] = value;
        }
      }
      rows.add(features);
      labels.add(label);
    }
    if (rows.isEmpty()) {
      throw new MalformedDataException(source, Math.max(1, lineNumber), "no records in the file");
    }
    double[] y = new double[labels.size()];
    for (int i = 0; i < y.length; i++) {
      y[i] = labels.get(i);
    }
    return new PersonRecords(LabelledData.of(rows.toArray(double[][]::new), y), persons.toArray(String[]::new));
  }

  /** The person column's index, -1 without one; it must not be the label column. */
  private static int personIndex(LabelColumn column, List<String> names, int columns, int labelIndex, String source,
      long line) throws MalformedDataException {
    if (column == null) {
      return -1;
    }
    int index = columnIndex(column, "person", names, columns, source, line);
    if (index == labelIndex) {
      throw new MalformedDataException(source, line, "the person column is the label column (column " + (index + 1)
          + ")");
    }
    return index;
  }

  private static int labelIndex(LabelColumn column, List<String> names, int columns, String source, long line)
      throws MalformedDataException {
    return columnIndex(column, "label", names, columns, source, line);
  }

  /** The index of {@code column} (null: the label's default), named by its {@code role} in errors. */
  private static int columnIndex(LabelColumn column, String role, List<String> names, int columns, String source,
      long line) throws MalformedDataException {
    if (column == null) {
      if (names != null) {
        for (String candidate : LABEL_NAMES) {
          for (int k = 0; k < names.size(); k++) {
            if (names.get(k).toLowerCase(Locale.ROOT).equals(candidate)) {
              return k;
            }
          }
        }
      }
      return 0;
    }
    if (column instanceof LabelColumn.Named named) {
      if (names == null) {
        throw new MalformedDataException(source, line, role + " column '" + named.name()
            + "' is a name, but the file is read without a header");
      }
      for (int k = 0; k < names.size(); k++) {
        if (names.get(k).equalsIgnoreCase(named.name().strip())) {
          return k;
        }
      }
      throw new MalformedDataException(source, line, "no column named '" + named.name() + "' in the header " + names);
    }
    int index = ((LabelColumn.At) column).index();
    int resolved = index < 0 ? columns + index : index;
    if (resolved < 0 || resolved >= columns) {
      throw new MalformedDataException(source, line, role + " column " + index + " is outside the "
          + columns + " columns (0-based; negative counts from the end)");
    }
    return resolved;
  }

  private static String unquote(String field) {
    return field.length() >= 2 && field.startsWith("\"") && field.endsWith("\"")
        ? field.substring(1, field.length() - 1).strip() : field;
  }

  private static String printable(char c) {
    return c == '\t' ? "\\t" : String.valueOf(c);
  }
}
