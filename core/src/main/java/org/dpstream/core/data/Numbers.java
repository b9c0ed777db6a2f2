package org.dpstream.core.data;

import java.util.Locale;
import java.util.regex.Pattern;

/** Strict parsing of decimal numbers in data files: no hex, no Java suffixes, no NaN, no infinities. */
final class Numbers {

  private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

  private Numbers() {}

  /**
   * @param what names the value in the error, e.g. "feature 3"
   * @throws MalformedDataException naming the line if the token is not a finite decimal number
   */
  static double parse(String token, String what, String source, long line) throws MalformedDataException {
    String t = token.strip();
    if (t.isEmpty()) {
      throw new MalformedDataException(source, line, what + " is empty");
    }
    if (!DECIMAL.matcher(t).matches()) {
      String lower = t.toLowerCase(Locale.ROOT).replaceFirst("^[+-]", "");
      if (lower.equals("nan") || lower.equals("inf") || lower.equals("infinity")) {
        throw new MalformedDataException(source, line,
            what + " is " + t + "; non-finite values (NaN, infinities) are not allowed");
      }
      throw new MalformedDataException(source, line, what + ": '" + abbreviate(t) + "' is not a number");
    }
    double value = Double.parseDouble(t);
    if (!Double.isFinite(value)) {
      throw new MalformedDataException(source, line, what + " = " + abbreviate(t) + " overflows a double");
    }
    return value;
  }

  static String abbreviate(String text) {
    return text.length() <= 40 ? text : text.substring(0, 37) + "...";
  }
}
