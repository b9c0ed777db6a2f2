package org.dpstream.options;

import java.nio.file.Path;
import org.dpstream.core.data.FashionMnist;
import picocli.CommandLine.Option;

/** {@code --data-dir}: where Fashion-MNIST's IDX files are, for the commands that can read it. A picocli {@code @Mixin}. */
public final class FashionMnistDirectoryOption {

  @Option(names = "--data-dir", paramLabel = "DIR", defaultValue = FashionMnist.DEFAULT_DIRECTORY_NAME,
      description = "fashion-mnist: directory of the IDX files (Debian package " + FashionMnist.DEBIAN_PACKAGE + ")."
          + " Default: ${DEFAULT-VALUE}.")
  Path directory;

  public Path path() {
    return directory;
  }
}
