package org.dpstream.core.data;

/** A data set is not installed where it was looked for; the message says how to install it. */
public final class MissingDatasetException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public MissingDatasetException(String message) {
    super(message);
  }
}
