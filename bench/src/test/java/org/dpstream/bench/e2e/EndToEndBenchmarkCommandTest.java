package org.dpstream.bench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The e2e command's options: a list of model counts, each measured in one run. */
class EndToEndBenchmarkCommandTest {

  @Test
  void modelsTakeAListOfCounts() {
    EndToEndBenchmarkCommand command = new EndToEndBenchmarkCommand();
    new CommandLine(command).parseArgs("--models", "4,10000");
    assertEquals(List.of(4, 10_000), command.modelCounts);
  }

  @Test
  void oneCountByDefault() {
    EndToEndBenchmarkCommand command = new EndToEndBenchmarkCommand();
    new CommandLine(command).parseArgs();
    assertEquals(List.of(4), command.modelCounts);
  }

  @Test
  void aCountBelowOneIsRefusedBeforeAnyBrokerStarts() {
    CommandLine commandLine = new CommandLine(new EndToEndBenchmarkCommand());
    StringWriter err = new StringWriter();
    commandLine.setErr(new PrintWriter(err));
    commandLine.setOut(new PrintWriter(new StringWriter()));
    assertNotEquals(0, commandLine.execute("--models", "4,0"));
    assertTrue(err.toString().contains("--models"), err.toString());
  }
}
