package org.dpstream.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class BenchCliTest {

  /** JMH finds benchmarks through META-INF/BenchmarkList, written by its annotation processor at build. */
  @Test
  void jmhListsTheBenchmarksTheBuildGenerated() {
    PrintStream original = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      new CommandLine(new BenchCli()).execute("jmh", "-l");
    } finally {
      System.setOut(original);
    }
    String listing = captured.toString(StandardCharsets.UTF_8);
    assertTrue(listing.contains("TreeStepBenchmark.step"), listing);
    assertTrue(listing.contains("NoiseGenerationBenchmark.perNode"), listing);
  }

  @Test
  void theEndToEndBenchmarkIsASubcommandWithItsOptions() {
    StringWriter usage = new StringWriter();
    CommandLine commandLine = new CommandLine(new BenchCli());
    commandLine.setOut(new PrintWriter(usage));
    commandLine.execute("e2e", "--help");
    String text = usage.toString();
    for (String option : new String[] {"--samples", "--d", "--partitions", "--models"}) {
      assertTrue(text.contains(option), text);
    }
  }
}
