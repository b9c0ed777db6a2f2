package org.dpstream.service.metrics;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Prometheus' own linter, {@code promtool check metrics}, when it is on the PATH (Debian: apt-get install
 * prometheus; .ci/run installs it when it can). Tests skip, with this class's message, where it is missing.
 */
public final class Promtool {

  public static final String MISSING = "promtool is not on the PATH: /metrics is not linted"
      + " (install it with: apt-get install prometheus)";

  private Promtool() {}

  public static Optional<Path> find() {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    return Arrays.stream(path.split(java.io.File.pathSeparator))
        .map(dir -> Path.of(dir, "promtool"))
        .filter(Files::isExecutable)
        .findFirst();
  }

  /** The outcome of a lint: promtool's exit code and its output (one line per problem). */
  public record Result(int exitCode, String output) {
    public boolean clean() {
      return exitCode == 0 && output.isBlank();
    }
  }

  /** Runs {@code promtool check metrics} on a Prometheus text exposition. */
  public static Result checkMetrics(Path promtool, String exposition) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(promtool.toString(), "check", "metrics").redirectErrorStream(true).start();
    try (OutputStream in = process.getOutputStream()) {
      in.write(exposition.getBytes(StandardCharsets.UTF_8));
    }
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("promtool did not finish in 60 s");
    }
    return new Result(process.exitValue(), output);
  }

  /** Runs promtool with these arguments in {@code directory}: {@code check rules F}, {@code test rules F}. */
  public static Result run(Path promtool, Path directory, String... arguments) throws IOException, InterruptedException {
    String[] command = new String[arguments.length + 1];
    command[0] = promtool.toString();
    System.arraycopy(arguments, 0, command, 1, arguments.length);
    Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
    process.getOutputStream().close();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("promtool did not finish in 60 s");
    }
    return new Result(process.exitValue(), output);
  }
}
