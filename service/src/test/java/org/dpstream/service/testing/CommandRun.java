package org.dpstream.service.testing;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.dpstream.service.ServiceCli;
import picocli.CommandLine;

/**
 * One run of a command line in this JVM, as an operator types it: the exit code and what it printed.
 *
 * @param exitCode 0 on success, 1 on a failed run, 2 on a usage error
 */
public record CommandRun(int exitCode, String out, String err) {

  /** Runs {@code cli} with these arguments, capturing its standard output and error. */
  public static CommandRun of(CommandLine cli, String... arguments) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int exitCode = cli.execute(arguments);
    return new CommandRun(exitCode, out.toString(), err.toString());
  }

  /** Runs the service's command line ({@code dpstream-service}) with these arguments. */
  public static CommandRun service(String... arguments) {
    return of(ServiceCli.commandLine(), arguments);
  }

  /** Runs the subcommand {@code name} of the service's command line with these arguments. */
  public static CommandRun serviceCommand(String name, String... arguments) {
    String[] all = new String[arguments.length + 1];
    all[0] = name;
    System.arraycopy(arguments, 0, all, 1, arguments.length);
    return service(all);
  }

  public List<String> outLines() {
    return out.lines().toList();
  }

  public List<String> errLines() {
    return err.lines().toList();
  }
}
