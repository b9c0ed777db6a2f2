package org.dpstream.options;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The required {@code --out DIR} of the experiments that write several files. Use as a picocli {@code @Mixin}. */
public final class OutputDirectoryOption {

  @Option(names = "--out", required = true, paramLabel = "DIR", description = "Output directory (created if missing).")
  Path out;

  public Path path() {
    return out;
  }

  /** Creates the directory (and its parents) if missing; returns it. */
  public Path create() throws IOException {
    return Files.createDirectories(out);
  }
}
