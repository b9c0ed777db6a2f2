package org.dpstream.core.data;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;

/**
 * Reads the LibSVM / SVMlight text format: one record per line, {@code label index:value index:value ...},
 * indices 1-based and strictly increasing, separated by blanks or tabs; absent indices are 0. A file that
 * lists every index is the dense case. Blank lines and text after {@code #} are ignored. The dimension is
 * the declared one, or else the largest index seen.
 *
 * <p>Every problem is a {@link MalformedDataException} naming the line: a label or value that is not a
 * finite decimal number (NaN and infinities included), a token without {@code index:value}, an index below
 * 1, indices not strictly increasing, an index beyond the declared dimension, a {@code qid:} token.
 */
public final class LibSvmReader {

  private LibSvmReader() {}

  /** Reads a file; the dimension is the largest index. */
  public static SparseLabelledData read(Path file) throws IOException {
    return read(file, OptionalInt.empty());
  }

  /**
   * Reads a file.
   *
   * @param dimension the declared dimension d (indices 1..d), or empty for the largest index seen
   */
  public static SparseLabelledData read(Path file, OptionalInt dimension) throws IOException {
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      return read(reader, file.toString(), dimension);
    }
  }

  /** Reads from a reader; {@code source} names it in error messages. */
  public static SparseLabelledData read(Reader reader, String source, OptionalInt dimension) throws IOException {
    if (dimension.isPresent() && dimension.getAsInt() < 1) {
      throw new IllegalArgumentException("the dimension must be >= 1, got " + dimension.getAsInt());
    }
    BufferedReader in = reader instanceof BufferedReader b ? b : new BufferedReader(reader);
    List<SparseVector> rows = new ArrayList<>();
    double[] labels = new double[16];
    int extent = 0;
    long lineNumber = 0;
    String line;
    while ((line = in.readLine()) != null) {
      lineNumber++;
      int comment = line.indexOf('#');
      String content = (comment >= 0 ? line.substring(0, comment) : line).strip();
      if (content.isEmpty()) {
        continue;
      }
      String[] tokens = content.split("[ \\t]+");
      if (tokens[0].indexOf(':') >= 0) {
        throw new MalformedDataException(source, lineNumber, "the line must start with a label, got '"
            + Numbers.abbreviate(tokens[0]) + "'");
      }
      double label = Numbers.parse(tokens[0], "the label", source, lineNumber);
      int[] indices = new int[tokens.length - 1];
      double[] values = new double[tokens.length - 1];
      for (int k = 1; k < tokens.length; k++) {
        String token = tokens[k];
        int colon = token.indexOf(':');
        if (colon <= 0 || colon == token.length() - 1) {
          throw new MalformedDataException(source, lineNumber,
              "expected index:value, got '" + Numbers.abbreviate(token) + "'");
        }
        String indexText = token.substring(0, colon);
        if (indexText.equalsIgnoreCase("qid")) {
          throw new MalformedDataException(source, lineNumber, "qid: tokens (ranking files) are not supported");
        }
        int index;
        try {
          index = Integer.parseInt(indexText);
        } catch (NumberFormatException e) {
          throw new MalformedDataException(source, lineNumber,
              "index '" + Numbers.abbreviate(indexText) + "' is not an integer");
        }
        if (index < 1) {
          throw new MalformedDataException(source, lineNumber, "index " + index + " is below 1 (LibSVM indices are 1-based)");
        }
        if (k > 1 && index <= indices[k - 2] + 1) {
          throw new MalformedDataException(source, lineNumber, "index " + index + " after index " + (indices[k - 2] + 1)
              + ": indices must be strictly increasing");
        }
        if (dimension.isPresent() && index > dimension.getAsInt()) {
          throw new MalformedDataException(source, lineNumber,
              "index " + index + " is beyond the declared dimension " + dimension.getAsInt());
        }
        indices[k - 1] = index - 1;
        values[k - 1] = Numbers.parse(token.substring(colon + 1), "the value of feature " + index, source, lineNumber);
      }
      if (rows.size() == labels.length) {
        labels = Arrays.copyOf(labels, labels.length * 2);
      }
      labels[rows.size()] = label;
      rows.add(SparseVector.of(indices, values));
      if (indices.length > 0) {
        extent = Math.max(extent, indices[indices.length - 1] + 1);
      }
    }
    if (rows.isEmpty()) {
      throw new MalformedDataException(source, Math.max(1, lineNumber), "no records in the file");
    }
    int d = dimension.orElse(extent);
    if (d < 1) {
      throw new MalformedDataException(source, lineNumber, "no feature in any record");
    }
    return new SparseLabelledData(rows, Arrays.copyOf(labels, rows.size()), d);
  }
}
