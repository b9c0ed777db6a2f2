package org.dpstream.service.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dpstream.service.testing.RepositoryFiles;

/** The code blocks the README marks as examples ({@code <!-- example: NAME -->} before a fenced block). */
final class ReadmeExamples {

  private ReadmeExamples() {}

  /** The content of the fenced block after {@code <!-- example: name -->}; the README must have one. */
  static String block(String name) {
    try {
      String readme = Files.readString(RepositoryFiles.root().resolve("README.md"));
      Matcher matcher = Pattern.compile("<!-- example: " + Pattern.quote(name) + " -->\\s*```\\w*\\n(.*?)\\n```",
          Pattern.DOTALL).matcher(readme);
      if (!matcher.find()) {
        throw new AssertionError("README.md has no example block " + name);
      }
      return matcher.group(1);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The public class a Java example declares. */
  static String className(String java) {
    Matcher matcher = Pattern.compile("public class (\\w+)").matcher(java);
    if (!matcher.find()) {
      throw new AssertionError("the Java example declares no public class");
    }
    return matcher.group(1);
  }
}
