package org.dpstream.service;

import org.dpstream.service.acl.AclsCommand;
import org.dpstream.service.cli.VersionCommand;
import org.dpstream.service.consume.ConsumeCommand;
import org.dpstream.service.dda.DdaNodeCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of {@code dpstream-service.jar}, the artifact the Docker image ships: the service's
 * commands without the demo and {@code train}, which stay in {@code dpstream.jar}
 * ({@code DpstreamCli} in stream-app) with the embedded broker and the plotting they need.
 */
@Command(
    name = "dpstream",
    mixinStandardHelpOptions = true,
    versionProvider = VersionCommand.Provider.class,
    description = "Differentially private learning from live event streams: the service.",
    subcommands = {RunCommand.class, ConsumeCommand.class, AclsCommand.class, DdaNodeCommand.class, VersionCommand.class,
        CommandLine.HelpCommand.class})
public final class ServiceCli implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The configured command line, apart from {@link #main} so tests can run it without exiting. */
  public static CommandLine commandLine() {
    return new CommandLine(new ServiceCli());
  }

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
