package org.dpstream.core.data;

import java.io.IOException;

/** A data file that cannot be read as its format says; the message names the file and the line. */
public final class MalformedDataException extends IOException {

  private static final long serialVersionUID = 1L;

  private final String source;
  private final long lineNumber;

  /**
   * @param source the file (or other source) name
   * @param lineNumber 1-based line of the problem
   * @param problem what is wrong, without the location
   */
  public MalformedDataException(String source, long lineNumber, String problem) {
    super(source + ", line " + lineNumber + ": " + problem);
    this.source = source;
    this.lineNumber = lineNumber;
  }

  public String source() {
    return source;
  }

  /** The 1-based line number. */
  public long lineNumber() {
    return lineNumber;
  }
}
