package org.dpstream.service.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.dpstream.core.privacy.random.NoiseKey;
import org.dpstream.service.ServiceCli;

/**
 * The service as an operator runs it, {@code dpstream run --config FILE}, in a child JVM, so that it
 * can be killed the hard way: {@link #kill()} is SIGKILL, no shutdown hook, no Streams close, no
 * transaction commit or abort, no state checkpoint. Output goes to a log file, shown on failures.
 */
final class ServiceProcess implements AutoCloseable {

  private static final int LOG_TAIL_LINES = 40;

  /** The ITs' noise key, as an operator would set it. */
  private static final Map<String, String> ITS_KEY = Map.of(NoiseKey.ENVIRONMENT_VARIABLE, ItModels.NOISE_KEY_HEX);

  private final Process process;
  private final Path log;

  private ServiceProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  static ServiceProcess start(Path configFile, Path log) {
    return startCommand(List.of("run", "--config", configFile.toString()), log);
  }

  /**
   * {@code run --config FILE} with the noise keys of {@code keys} in its environment (e.g. {@code DPSTREAM_NOISE_KEY}
   * and {@code DPSTREAM_NOISE_KEY_RETIRED}) instead of the ITs' key.
   */
  static ServiceProcess start(Path configFile, Path log, Map<String, String> keys) {
    return launch(List.of("-cp", testClassPath(), ServiceCli.class.getName()),
        List.of("run", "--config", configFile.toString()), log, keys);
  }

  /** Any {@code dpstream} subcommand with its arguments, e.g. {@code dda-node --node-id 1 --config F}. */
  static ServiceProcess startCommand(List<String> arguments, Path log) {
    return launch(List.of("-cp", testClassPath(), ServiceCli.class.getName()), arguments, log, ITS_KEY);
  }

  /** {@code java -jar JAR} and the arguments: a shaded jar as an operator runs it, nothing of the test class path. */
  static ServiceProcess startJar(Path jar, List<String> arguments, Path log) {
    return launch(List.of("-jar", jar.toString()), arguments, log, ITS_KEY);
  }

  private static ServiceProcess launch(List<String> mainClass, List<String> arguments, Path log,
      Map<String, String> keys) {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
    command.addAll(mainClass);
    command.addAll(arguments);
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    for (String variable : List.of(NoiseKey.ENVIRONMENT_VARIABLE, NoiseKey.FILE_ENVIRONMENT_VARIABLE,
        NoiseKey.RETIRED_ENVIRONMENT_VARIABLE, NoiseKey.RETIRED_FILE_ENVIRONMENT_VARIABLE)) {
      builder.environment().remove(variable);
    }
    builder.environment().putAll(keys);
    try {
      return new ServiceProcess(builder.start(), log);
    } catch (IOException e) {
      throw new UncheckedIOException("could not start the service JVM", e);
    }
  }

  /**
   * Failsafe may run tests from a manifest-only jar; it publishes the real class path under this
   * property, which the child needs (main classes and all dependencies).
   */
  private static String testClassPath() {
    String failsafe = System.getProperty("surefire.test.class.path");
    return failsafe != null && !failsafe.isBlank() ? failsafe : System.getProperty("java.class.path");
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** Waits (bounded) for the process to exit by itself and returns its exit code. */
  int awaitExit(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new IllegalStateException("the process did not finish within " + timeout + "\n" + logTail());
    }
    return process.exitValue();
  }

  /** Whether some line of the output so far contains {@code text}. */
  boolean logContains(String text) {
    try {
      return Files.readString(log, StandardCharsets.UTF_8).contains(text);
    } catch (IOException e) {
      return false;
    }
  }

  /** How many lines of the output so far contain {@code text}. */
  long logLinesContaining(String text) {
    try {
      return Files.readAllLines(log, StandardCharsets.UTF_8).stream().filter(line -> line.contains(text)).count();
    } catch (IOException e) {
      return 0;
    }
  }

  /** SIGTERM, as an operator stops it, and waits (bounded) for the JVM to exit; returns its exit code. */
  int terminate(Duration timeout) throws InterruptedException {
    process.destroy();
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new IllegalStateException("the service did not stop within " + timeout + " of SIGTERM\n" + logTail());
    }
    return process.exitValue();
  }

  /** SIGKILL, and waits until the process is gone. */
  void kill() {
    process.destroyForcibly();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the service JVM survived SIGKILL for 30 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while killing the service JVM", e);
    }
  }

  /** The last lines of the service's output, for failure messages. */
  String logTail() {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return "--- last lines of " + log + " ---\n"
          + String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      kill();
    }
  }
}
