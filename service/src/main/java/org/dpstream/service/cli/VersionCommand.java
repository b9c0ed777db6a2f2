package org.dpstream.service.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Prints the build's version: the {@code version} subcommand of dpstream.jar and dpstream-service.jar. */
@Command(name = "version", description = "Print the dpstream version.")
public final class VersionCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @CommandLine.Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
  boolean help;

  @Override
  public void run() {
    spec.commandLine().getOut().println("dpstream " + Provider.current());
  }

  /** Reads the version Maven wrote into {@code dpstream-version.properties} at build time. */
  public static final class Provider implements CommandLine.IVersionProvider {
    static String current() {
      try (InputStream in = VersionCommand.class.getResourceAsStream("/dpstream-version.properties")) {
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
