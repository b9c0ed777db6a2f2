package org.dpstream.app;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import org.dpstream.app.consume.ConsumeCommand;
import org.dpstream.app.dda.DdaNodeCommand;
import org.dpstream.app.demo.DemoCommand;
import org.dpstream.app.train.TrainCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of {@code dpstream.jar}: the service's command line. */
@Command(
    name = "dpstream",
    mixinStandardHelpOptions = true,
    versionProvider = DpstreamCli.Version.class,
    description = "Differentially private learning from live event streams.",
    subcommands = {DemoCommand.class, RunCommand.class, ConsumeCommand.class, TrainCommand.class, DdaNodeCommand.class, DpstreamCli.VersionCommand.class, CommandLine.HelpCommand.class})
public final class DpstreamCli implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The configured command line, apart from {@link #main} so tests can run it without exiting. */
  public static CommandLine commandLine() {
    return new CommandLine(new DpstreamCli());
  }

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** Prints the build's version. */
  @Command(name = "version", description = "Print the dpstream version.")
  static final class VersionCommand implements Runnable {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @CommandLine.Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;

    @Override
    public void run() {
      spec.commandLine().getOut().println("dpstream " + Version.current());
    }
  }

  /** Reads the version Maven wrote into {@code dpstream-version.properties} at build time. */
  static final class Version implements CommandLine.IVersionProvider {
    static String current() {
      try (InputStream in = DpstreamCli.class.getResourceAsStream("/dpstream-version.properties")) {
        if (in == null) {
          throw new IllegalStateException("dpstream-version.properties missing from the classpath");
        }
        Properties properties = new Properties();
        properties.load(in);
        return properties.getProperty("version");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public String[] getVersion() {
      return new String[] {"dpstream " + current()};
    }
  }
}
