package org.dpstream.service.docs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's Java producer compiles, warning-free, against the Kafka clients the service is built with, so it
 * cannot drift from their API. ProducerExamplesIT also runs it against a broker.
 */
class JavaProducerExampleTest {

  @Test
  void theReadmesJavaProducerCompilesAgainstTheKafkaClients(@TempDir Path directory) throws IOException {
    String java = ReadmeExamples.block("java");
    DiagnosticCollector<JavaFileObject> diagnostics = compile(java, directory);
    assertTrue(diagnostics.getDiagnostics().isEmpty(), diagnostics.getDiagnostics().toString());
    assertTrue(Files.isRegularFile(directory.resolve(ReadmeExamples.className(java) + ".class")));
  }

  /** javac (all lint warnings on) on the example, with the kafka-clients jar the tests use as its class path. */
  static DiagnosticCollector<JavaFileObject> compile(String java, Path directory) throws IOException {
    Path source = directory.resolve(ReadmeExamples.className(java) + ".java");
    Files.writeString(source, java);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, null, null)) {
      List<String> options = List.of("-Xlint:all", "-proc:none", "-d", directory.toString(), "-classpath", kafkaClients());
      boolean compiled = javac.getTask(null, files, diagnostics, options, null, files.getJavaFileObjects(source)).call();
      assertTrue(compiled, diagnostics.getDiagnostics().toString());
    }
    return diagnostics;
  }

  private static String kafkaClients() {
    try {
      return Path.of(KafkaProducer.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
