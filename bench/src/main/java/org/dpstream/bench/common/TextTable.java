package org.dpstream.bench.common;

import java.util.List;
import java.util.function.IntPredicate;

/** Plain-text tables for the summaries the bench commands print. */
public final class TextTable {

  private TextTable() {}

  /**
   * Aligns rows of equal length in columns two spaces apart: text columns left-aligned, the others
   * (numbers) right-aligned; the last column is never padded and trailing blanks are stripped.
   *
   * @param textColumn which column indexes hold text
   */
  public static String align(List<String[]> rows, IntPredicate textColumn) {
    int columns = rows.get(0).length;
    int[] width = new int[columns];
    for (String[] row : rows) {
      for (int c = 0; c < columns; c++) {
        width[c] = Math.max(width[c], row[c].length());
      }
    }
    StringBuilder out = new StringBuilder();
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int c = 0; c < columns; c++) {
        if (c > 0) {
          line.append("  ");
        }
        String cell = row[c];
        if (c == columns - 1) {
          line.append(cell);
        } else if (textColumn.test(c)) {
          line.append(cell).append(" ".repeat(width[c] - cell.length()));
        } else {
          line.append(" ".repeat(width[c] - cell.length())).append(cell);
        }
      }
      out.append(line.toString().stripTrailing()).append('\n');
    }
    return out.toString();
  }
}
