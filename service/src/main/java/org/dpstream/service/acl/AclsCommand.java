package org.dpstream.service.acl;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.acl.AclBinding;
import org.dpstream.service.config.ConfigLoader;
import org.dpstream.service.dda.DdaNodeConfig;
import org.dpstream.service.kafka.ClientPropertiesFile;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code dpstream acls --config FILE --principal User:NAME}: the ACLs a role of dpstream needs on a secured
 * cluster, as {@code kafka-acls.sh} commands, a Markdown table, or created at once with the Admin API.
 */
@Command(
    name = "acls",
    description = {
      "Print the Kafka ACLs dpstream needs for a config, as kafka-acls.sh commands (or --format table), or create"
          + " them (--apply). Derived from the service's own topology and topic catalogue: nothing broader than"
          + " its own topics and groups and the prefix <applicationId>- of its internal topics and transactional"
          + " ids. See docs/security-and-privacy.md.",
      "Roles: service (dpstream run with this config), releases-reader (a consumer of the releases only: READ on"
          + " them, nothing else), dda-node (dpstream dda-node with this DP-DDA config).",
      "Exit codes: 0 done, 1 the cluster refused or could not be reached (--apply), 2 bad config or option."
    })
public final class AclsCommand implements Callable<Integer> {

  private static final Pattern PRINCIPAL = Pattern.compile("[A-Za-z][A-Za-z0-9]*:.+");
  private static final long APPLY_TIMEOUT_SECONDS = 60;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
  boolean help;

  @Option(names = "--config", required = true, paramLabel = "FILE",
      description = "The service's YAML config (a DP-DDA node's config for --role dda-node).")
  Path config;

  @Option(names = "--principal", required = true, paramLabel = "TYPE:NAME",
      description = "Who gets the ACLs, as Kafka names principals, e.g. User:dpstream.")
  String principal;

  @Option(names = "--role", paramLabel = "ROLE", defaultValue = "service",
      description = "service, releases-reader or dda-node (default: ${DEFAULT-VALUE}).")
  String role;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "kafka-acls",
      description = "kafka-acls (shell commands, default) or table (Markdown).")
  String format;

  @Option(names = "--apply", description = "Create the ACLs with the Admin API instead of printing them.")
  boolean apply;

  @Option(names = "--bootstrap-server", paramLabel = "HOST:PORT",
      description = "The cluster (for --apply; otherwise put into the printed commands).")
  String bootstrapServer;

  @Option(names = "--command-config", paramLabel = "FILE",
      description = "An administrator's client properties file (SASL/SSL), as the Kafka tools take it (for --apply;"
          + " otherwise named in the printed commands).")
  Path commandConfig;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (!PRINCIPAL.matcher(principal).matches()) {
      return fail(err, 2, "--principal must be TYPE:NAME, e.g. User:dpstream, got '" + principal + "'");
    }
    if (!format.equals("kafka-acls") && !format.equals("table")) {
      return fail(err, 2, "--format must be kafka-acls or table, got '" + format + "'");
    }
    RequiredAcls acls;
    try {
      acls = required(role, config);
    } catch (IllegalArgumentException | IllegalStateException e) {
      return fail(err, 2, e.getMessage());
    }
    if (apply) {
      return apply(acls, out, err);
    }
    List<String> lines = format.equals("table") ? AclListing.table(acls)
        : AclListing.kafkaAcls(acls, principal, bootstrapServer, commandConfig == null ? null : commandConfig.toString());
    lines.forEach(out::println);
    out.flush();
    return 0;
  }

  /** The ACLs of {@code role} with the config at {@code file}. */
  static RequiredAcls required(String role, Path file) {
    return switch (role) {
      case "service" -> RequiredAcls.forService(ConfigLoader.load(file));
      case "releases-reader" -> RequiredAcls.forReleasesReader(ConfigLoader.load(file).topics());
      case "dda-node" -> RequiredAcls.forDdaNode(ConfigLoader.read(file, DdaNodeConfig.class).topics());
      default -> throw new IllegalArgumentException("--role must be service, releases-reader or dda-node, got '"
          + role + "'");
    };
  }

  private int apply(RequiredAcls acls, PrintWriter out, PrintWriter err) {
    if (bootstrapServer == null || commandConfig == null) {
      return fail(err, 2, "--apply needs --bootstrap-server and --command-config (an administrator's client settings)");
    }
    Map<String, Object> settings;
    try {
      settings = ClientPropertiesFile.read(commandConfig);
    } catch (IOException | IllegalArgumentException e) {
      return fail(err, 2, "--command-config " + commandConfig + " is not a readable properties file: " + e.getMessage());
    }
    settings.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServer);
    List<AclBinding> bindings = acls.bindings(principal);
    try (Admin admin = Admin.create(settings)) {
      admin.createAcls(bindings).all().get(APPLY_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      return fail(err, 1, "the cluster refused the ACLs: " + e.getCause().getMessage());
    } catch (TimeoutException e) {
      return fail(err, 1, "no answer from Kafka at " + bootstrapServer + " within " + APPLY_TIMEOUT_SECONDS + " s");
    } catch (KafkaException e) {
      return fail(err, 1, e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return fail(err, 1, "interrupted");
    }
    out.println("acls: created " + bindings.size() + " ACL(s) for " + principal + " (role " + role + ")");
    out.flush();
    return 0;
  }

  private static int fail(PrintWriter err, int code, String message) {
    err.println("acls: " + message);
    err.flush();
    return code;
  }
}
