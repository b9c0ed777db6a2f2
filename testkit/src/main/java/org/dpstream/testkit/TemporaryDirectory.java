package org.dpstream.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/** A directory under java.io.tmpdir that is deleted, with its contents, on close. */
public final class TemporaryDirectory implements AutoCloseable {

  private final Path path;

  private TemporaryDirectory(Path path) {
    this.path = path;
  }

  public static TemporaryDirectory create(String prefix) {
    try {
      return new TemporaryDirectory(Files.createTempDirectory(prefix));
    } catch (IOException e) {
      throw new UncheckedIOException("could not create a temporary directory", e);
    }
  }

  /**
   * A temporary directory inside {@code parent} instead of java.io.tmpdir, for state that must not
   * live where the OS may clean up behind a running process (Kafka Streams warns about that).
   */
  public static TemporaryDirectory createIn(Path parent, String prefix) {
    try {
      return new TemporaryDirectory(Files.createTempDirectory(Files.createDirectories(parent), prefix));
    } catch (IOException e) {
      throw new UncheckedIOException("could not create a temporary directory in " + parent, e);
    }
  }

  public Path path() {
    return path;
  }

  /** Empties the directory but keeps it. */
  void clear() {
    deleteContents(false);
  }

  @Override
  public void close() {
    deleteContents(true);
  }

  private void deleteContents(boolean includingRoot) {
    if (!Files.exists(path)) {
      return;
    }
    try {
      Files.walkFileTree(path, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
          Files.deleteIfExists(file);
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
          // Kafka may still be deleting a segment it has renamed; what is gone need not be deleted.
          if (e instanceof NoSuchFileException) {
            return FileVisitResult.CONTINUE;
          }
          throw e;
        }

        @Override
        public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
          if (includingRoot || !dir.equals(path)) {
            Files.deleteIfExists(dir);
          }
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException("could not delete " + path, e);
    }
  }
}
