package org.dpstream.app.demo;

import java.nio.file.Files;
import java.nio.file.Path;

/** The repository root as seen from this module's tests (surefire runs them in stream-app/). */
final class RepositoryFiles {

  private RepositoryFiles() {}

  static Path root() {
    Path moduleDirectory = Path.of("").toAbsolutePath();
    Path root = moduleDirectory.getParent();
    if (root == null || !Files.isRegularFile(root.resolve("docker-compose.yml"))) {
      throw new IllegalStateException("expected to run in stream-app/ of the repository, not " + moduleDirectory);
    }
    return root;
  }
}
