package org.dpstream.bench.bandite2e;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Runs a main class in a JVM of its own (the same java, the same class path, the JVM's default options) and
 * collects what it prints; a line {@code marker} on its output runs {@code atMarker} at once, in this JVM. A line
 * {@code pause} runs {@code beforeResuming} in this JVM and then writes {@link #RESUME} to the process's standard
 * input, which the process waits for ({@link #awaitResume}). Its standard error is this process's.
 */
final class ClientProcess {

  /** What the process printed after the marker, and what {@code atMarker} returned. */
  record Report<T>(List<String> lines, T atMarker) {}

  /** The line that lets a paused process go on. */
  static final String RESUME = "resume";

  private ClientProcess() {}

  static <T> Report<T> run(Class<?> main, String[] arguments, String marker, Supplier<T> atMarker)
      throws IOException, InterruptedException {
    return run(main, arguments, Map.of(), null, () -> { }, marker, atMarker);
  }

  /** @param environment variables the process gets besides this one's (secrets: not in its arguments) */
  static <T> Report<T> run(Class<?> main, String[] arguments, Map<String, String> environment, String pause,
      Runnable beforeResuming, String marker, Supplier<T> atMarker) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), main.getName()));
    command.addAll(List.of(arguments));
    ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
    builder.environment().putAll(environment);
    Process process = builder.start();
    List<String> before = new ArrayList<>();
    List<String> after = new ArrayList<>();
    T result = null;
    boolean marked = false;
    try (BufferedReader output =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = output.readLine(); line != null; line = output.readLine()) {
        if (!marked && line.equals(pause)) {
          beforeResuming.run();
          process.getOutputStream().write((RESUME + System.lineSeparator()).getBytes(StandardCharsets.UTF_8));
          process.getOutputStream().flush();
        } else if (!marked && line.equals(marker)) {
          marked = true;
          result = atMarker.get();
        } else {
          (marked ? after : before).add(line);
        }
      }
    } finally {
      process.getOutputStream().close();
    }
    int exit = process.waitFor();
    if (exit != 0 || !marked) {
      throw new IllegalStateException(main.getSimpleName() + " failed (exit code " + exit
          + (marked ? "" : ", it never said '" + marker + "'") + ")" + (before.isEmpty() ? "" : ": " + before));
    }
    return new Report<>(after, result);
  }

  /** In the started process: waits until the parent says {@link #RESUME} on standard input. */
  static void awaitResume(BufferedReader input) throws IOException {
    String line = input.readLine();
    if (!RESUME.equals(line)) {
      throw new IOException("expected '" + RESUME + "' from the bench, got "
          + (line == null ? "the end of input" : "'" + line + "'"));
    }
  }
}
