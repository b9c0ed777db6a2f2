package org.dpstream.service.docs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.dpstream.service.testing.RepositoryFiles;
import org.junit.jupiter.api.Test;

/**
 * The repository describes the product as it is: code, comments, tests and docs name no development history
 * (working sessions, tracker issues, what changed when, people's roles in the work) and cite papers by author,
 * title and year rather than by notes that are not in the repository. History belongs to git; a reader of a comment or a
 * doc cannot look up a session or a brief, and cannot tell whether a sentence about one is still true.
 */
class RepositoryWordsTest {

  /** Each pattern with why it is refused. Case-insensitive; "session" alone stays legal (SASL, HTTP, group sessions). */
  static final Map<Pattern, String> DENIED = Map.of(
      Pattern.compile("\\bsessions? \\d", Pattern.CASE_INSENSITIVE), "names a development session",
      Pattern.compile("\\bissues? #?\\d|\\bissue's\\b|\\bfoundation issue\\b", Pattern.CASE_INSENSITIVE),
      "names a tracker issue",
      Pattern.compile("(?<![\\w&/\"'{(\\[#-])#\\d+\\b(?![\\w-])"), "names an issue by number",
      Pattern.compile("\\b(before|after|until) the fix\\b", Pattern.CASE_INSENSITIVE), "tells history, not the product",
      Pattern.compile("\\bthe (helper|lead)(?!er)(?:'s)?\\b(?! (method|class|function|thread|record|type))",
          Pattern.CASE_INSENSITIVE), "names a person's role in development",
      Pattern.compile("(?i:\\b(helper|engineer)s?) [A-Z]\\b|(?i:\\b(this|that|last|previous|next) session)"),
      "names a person or a development session",
      Pattern.compile("\\bbrief-\\w+|\\b(the|its|this) brief('s)?\\b|/work/", Pattern.CASE_INSENSITIVE),
      "cites notes outside the repository: cite the paper by author, title and year");

  private static final List<String> SCANNED_EXTENSIONS = List.of(".java", ".md", ".yaml", ".yml", ".avsc", ".sh");

  /** A line break with the next line's indentation and comment marker: phrases broken over lines are read whole. */
  private static final Pattern LINE_BREAK = Pattern.compile("[ \\t]*\\R[ \\t]*(?:\\*(?!/)|//|#+)?[ \\t]*");

  @Test
  void noFileOfTheRepositoryTellsItsDevelopmentHistory() throws IOException {
    Path root = RepositoryFiles.root();
    List<String> findings = new ArrayList<>();
    for (Path file : scannedFiles(root)) {
      String text = LINE_BREAK.matcher(Files.readString(file, StandardCharsets.UTF_8)).replaceAll(" ");
      for (Map.Entry<Pattern, String> denied : DENIED.entrySet()) {
        Matcher matcher = denied.getKey().matcher(text);
        while (matcher.find()) {
          String context = text.substring(Math.max(0, matcher.start() - 40), Math.min(text.length(), matcher.end() + 40));
          findings.add(root.relativize(file) + ": \"" + matcher.group() + "\" " + denied.getValue() + ": ..." + context
              + "...");
        }
      }
    }
    assertTrue(findings.isEmpty(), String.join("\n", findings));
  }

  /** The patterns catch what they are meant to, and leave the legitimate uses of the same words alone. */
  @Test
  void theDenyListCatchesHistoryAndLeavesOrdinaryWordsAlone() {
    // Synthetic phrases, one or more per pattern: none of them is about this repository.
    for (String history : List.of("in session 1", "Sessions 1-2", "issue 1's", "in #1.", "before the fix",
        "as the\n   * brief says", "the lead's", "the helper's", "helper X", "this session", "engineer X", "brief-x.md",
        "the brief's", "/work/x")) {
      assertTrue(denied(LINE_BREAK.matcher(history).replaceAll(" ")), history);
    }
    for (String ordinary : List.of("the SASL session expires", "session.timeout.ms", "an HTTP session",
        "the group session of 45 s", "{@link Foo#bar}", "color #1f77b4", "a test helper method",
        "the leader of every partition", "issues a certificate", "a brief pause", "README#section-2",
        "Formats.brief(value)")) {
      assertTrue(!denied(ordinary), ordinary);
    }
  }

  private static boolean denied(String text) {
    return DENIED.keySet().stream().anyMatch(pattern -> pattern.matcher(text).find());
  }

  /** README and the other top-level docs, docs/, config/, deploy/, and every module's src/. */
  private static List<Path> scannedFiles(Path root) throws IOException {
    List<Path> files = new ArrayList<>();
    try (Stream<Path> top = Files.list(root)) {
      top.filter(Files::isRegularFile).filter(RepositoryWordsTest::scanned).forEach(files::add);
    }
    try (Stream<Path> all = Files.walk(root)) {
      all.filter(Files::isRegularFile)
          .filter(RepositoryWordsTest::scanned)
          .filter(path -> inScannedTree(root.relativize(path)))
          .filter(path -> !path.getFileName().toString().equals("RepositoryWordsTest.java")) // its own deny-list
          .forEach(files::add);
    }
    assertTrue(files.size() > 500, "scanned only " + files.size() + " files: is the root right?");
    return files;
  }

  private static boolean inScannedTree(Path relative) {
    String first = relative.getName(0).toString();
    if (relative.getNameCount() < 2 || first.startsWith(".") || first.equals("target")) {
      return false;
    }
    if (first.equals("docs") || first.equals("config") || first.equals("deploy")) {
      return true;
    }
    return relative.getNameCount() > 2 && relative.getName(1).toString().equals("src");
  }

  private static boolean scanned(Path file) {
    String name = file.getFileName().toString();
    return SCANNED_EXTENSIONS.stream().anyMatch(name::endsWith);
  }
}
