package org.dpstream.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dpstream.service.testing.RepositoryFiles;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every dpstream command the README, docs/getting-started.md and CONTRIBUTING.md tell a user to type is one the
 * command line accepts (its subcommand and options parse as written, with {@code $VARIABLES} standing for values),
 * every file it names exists, and every Maven module a build command selects exists. A renamed option or a moved
 * config file then fails here rather than in a user's terminal. (The records and answers the docs print are checked
 * by TopicExamplesTest, DocumentedSamplesTest and HttpApiExamplesTest.)
 */
class DocumentedCommandsTest {

  private static final List<String> DOCUMENTS = List.of("README.md", "CONTRIBUTING.md", "docs/getting-started.md",
      "docs/configuration.md", "docs/topics-and-schemas.md", "docs/http-api.md", "docs/operations.md",
      "docs/security-and-privacy.md");
  private static final Pattern FENCED = Pattern.compile("```[a-z]*\\n(.*?)```", Pattern.DOTALL);
  /** An inline command: {@code `dpstream acls --config FILE ...`}. */
  private static final Pattern INLINE = Pattern.compile("`(dpstream (?:demo|run|consume|acls|train|dda-node|version)\\b[^`]*)`");
  private static final Pattern DPSTREAM = Pattern.compile("dpstream(?:-service)?\\.jar\\s+([^|;&>]*)");
  private static final Pattern MAVEN_MODULES = Pattern.compile("\\bmvn\\b[^\\n]*?-pl\\s+([\\w,-]+)");
  /** Files a command reads: config files, compose files, the demo's and run's inputs (not outputs or placeholders). */
  private static final Pattern NAMED_FILE = Pattern.compile("(?:--config|-f)\\s+((?:config|deploy|docker-compose)[\\w./-]*)");

  private final Path root = RepositoryFiles.root();

  @Test
  void everyDocumentedDpstreamCommandParses() throws IOException {
    List<String> refused = new ArrayList<>();
    int commands = 0;
    for (String document : DOCUMENTS) {
      for (CommandText line : commandLines(document)) {
        Matcher invocation = DPSTREAM.matcher(line.text());
        while (invocation.find()) {
          List<String> arguments = words(invocation.group(1));
          try {
            DpstreamCli.commandLine().parseArgs(arguments.toArray(String[]::new));
            commands++;
          } catch (CommandLine.MissingParameterException e) {
            if (!line.inline()) { // prose may name a command with some of its options; a command to type has all
              refused.add(document + ": dpstream " + String.join(" ", arguments) + ": " + e.getMessage());
            }
          } catch (CommandLine.ParameterException e) {
            refused.add(document + ": dpstream " + String.join(" ", arguments) + ": " + e.getMessage());
          }
        }
      }
    }
    assertTrue(refused.isEmpty(), String.join("\n", refused));
    assertTrue(commands >= 10, "dpstream commands found: " + commands);
  }

  @Test
  void everyFileAndModuleACommandNamesExists() throws IOException {
    List<String> missing = new ArrayList<>();
    for (String document : DOCUMENTS) {
      for (CommandText command : commandLines(document)) {
        String line = command.text();
        Matcher file = NAMED_FILE.matcher(line);
        while (file.find()) {
          if (!Files.exists(root.resolve(file.group(1)))) {
            missing.add(document + ": " + file.group(1));
          }
        }
        Matcher modules = MAVEN_MODULES.matcher(line);
        while (modules.find()) {
          for (String module : modules.group(1).split(",")) {
            if (!Files.isRegularFile(root.resolve(module).resolve("pom.xml"))) {
              missing.add(document + ": module " + module);
            }
          }
        }
      }
    }
    assertTrue(missing.isEmpty(), String.join("\n", missing));
  }

  /**
   * The document's inline dpstream commands and the lines of its fenced blocks, continuation lines joined, a
   * {@code $ } prompt dropped.
   */
  private record CommandText(String text, boolean inline) {}

  private List<CommandText> commandLines(String document) throws IOException {
    List<CommandText> lines = new ArrayList<>();
    String text = Files.readString(root.resolve(document));
    Matcher inline = INLINE.matcher(text.replaceAll("(?s)```.*?```", ""));
    while (inline.find()) {
      lines.add(new CommandText(inline.group(1).replaceFirst("^dpstream ", "dpstream.jar "), true));
    }
    Matcher block = FENCED.matcher(text);
    while (block.find()) {
      String joined = block.group(1).replaceAll("\\\\\\n\\s*", " ");
      for (String line : joined.split("\\n")) {
        lines.add(new CommandText(line.startsWith("$ ") ? line.substring(2) : line, false));
      }
    }
    return lines;
  }

  /** Shell words: quotes group, a trailing comment ends the line, {@code $VARIABLE} stands for a value. */
  private static List<String> words(String command) {
    List<String> words = new ArrayList<>();
    Matcher word = Pattern.compile("'([^']*)'|\"([^\"]*)\"|(#.*)|(\\S+)").matcher(command);
    while (word.find()) {
      if (word.group(3) != null) {
        break;
      }
      String text = word.group(1) != null ? word.group(1) : word.group(2) != null ? word.group(2) : word.group(4);
      words.add(text.replaceAll("\\$\\{?\\w+}?", "localhost:9092"));
    }
    return words;
  }
}
