package org.dpstream.bench;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/**
 * One run of {@code dpstream-bench} in the tests: exit code and what it printed.
 *
 * @param exitCode 0 on success, 1 on a failed run, 2 on a usage error
 */
public record BenchRun(int exitCode, String out, String err) {

  /** Runs the bench command line with these arguments. */
  public static BenchRun of(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new BenchCli());
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int code = cli.execute(args);
    return new BenchRun(code, out.toString(), err.toString());
  }
}
