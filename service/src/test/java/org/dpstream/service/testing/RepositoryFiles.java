package org.dpstream.service.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The repository root as seen from a module's tests (surefire and failsafe run them in the module's
 * directory, e.g. service/ or demo/).
 */
public final class RepositoryFiles {

  private RepositoryFiles() {}

  public static Path root() {
    Path moduleDirectory = Path.of("").toAbsolutePath();
    Path root = moduleDirectory.getParent();
    if (root == null || !Files.isRegularFile(root.resolve("docker-compose.yml"))) {
      throw new IllegalStateException("expected to run in a module directory of the repository, not " + moduleDirectory);
    }
    return root;
  }
}
