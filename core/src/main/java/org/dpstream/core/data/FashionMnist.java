package org.dpstream.core.data;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Loads Fashion-MNIST (Xiao, Rasul and Vollgraf 2017: 60000 training and 10000 test 28x28 images of 10
 * clothing classes) from the IDX files of Debian's {@value #DEBIAN_PACKAGE} package, which installs
 * {@code train-images-idx3-ubyte.gz}, {@code train-labels-idx1-ubyte.gz}, {@code t10k-images-idx3-ubyte.gz}
 * and {@code t10k-labels-idx1-ubyte.gz} under {@value #DEFAULT_DIRECTORY_NAME}. Uncompressed files of
 * the same names without {@code .gz} (as the upstream repository distributes after gunzip) are read too,
 * and preferred when both exist.
 */
public final class FashionMnist {

  public static final String DEBIAN_PACKAGE = "dataset-fashion-mnist";
  public static final String DEFAULT_DIRECTORY_NAME = "/usr/share/datasets/fashion-mnist";
  public static final Path DEFAULT_DIRECTORY = Path.of(DEFAULT_DIRECTORY_NAME);

  /** The two halves of the data set, by file-name prefix. */
  public enum Split {
    TRAIN("train"),
    TEST("t10k");

    private final String prefix;

    Split(String prefix) {
      this.prefix = prefix;
    }

    String imagesFile() {
      return prefix + "-images-idx3-ubyte";
    }

    String labelsFile() {
      return prefix + "-labels-idx1-ubyte";
    }
  }

  private FashionMnist() {}

  /**
   * Reads one split from {@code directory}.
   *
   * @throws MissingDatasetException if the directory or a file is missing; the message names the
   *     Debian package to install
   * @throws IOException if a file exists but cannot be read or is not a valid IDX file
   */
  public static LabelledImages load(Path directory, Split split) throws IOException {
    Path images = locate(directory, split.imagesFile());
    Path labels = locate(directory, split.labelsFile());
    return new LabelledImages(IdxArray.read(images), IdxArray.read(labels));
  }

  private static Path locate(Path directory, String name) {
    for (String candidate : new String[] {name, name + ".gz"}) {
      Path file = directory.resolve(candidate);
      if (Files.isRegularFile(file)) {
        return file;
      }
    }
    String where = Files.isDirectory(directory)
        ? directory + " has neither " + name + " nor " + name + ".gz"
        : "directory " + directory + " does not exist";
    throw new MissingDatasetException("Fashion-MNIST not found: " + where + ". Install it with"
        + " 'sudo apt-get install " + DEBIAN_PACKAGE + "' (Debian/Ubuntu; it puts the IDX files under "
        + DEFAULT_DIRECTORY_NAME + "), or point at a directory holding the IDX files from"
        + " https://github.com/zalandoresearch/fashion-mnist.");
  }
}
