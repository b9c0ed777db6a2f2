package org.dpstream.cli;

import org.dpstream.cli.train.TrainCommand;
import org.dpstream.demo.DemoCommand;
import org.dpstream.service.RunCommand;
import org.dpstream.service.acl.AclsCommand;
import org.dpstream.service.cli.VersionCommand;
import org.dpstream.service.consume.ConsumeCommand;
import org.dpstream.service.dda.DdaNodeCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of {@code dpstream.jar}: the service's command line with the demo and train ({@link org.dpstream.service.ServiceCli} without them). */
@Command(
    name = "dpstream",
    mixinStandardHelpOptions = true,
    versionProvider = VersionCommand.Provider.class,
    description = "Differentially private learning from live event streams.",
    subcommands = {DemoCommand.class, RunCommand.class, ConsumeCommand.class, AclsCommand.class, TrainCommand.class,
        DdaNodeCommand.class, VersionCommand.class, CommandLine.HelpCommand.class})
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
}
