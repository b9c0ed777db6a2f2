package org.dpstream.service.serde;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.avro.specific.SpecificRecord;
import org.dpstream.service.testing.RepositoryFiles;
import org.junit.jupiter.api.Test;

/**
 * The README's JSON example of each topic's record decodes with that topic's serde and is exactly
 * what the serde writes for the decoded record, so the examples cannot drift from the schemas.
 */
class ReadmeTopicExamplesTest {

  private static final Pattern EXAMPLE =
      Pattern.compile("<!-- example: (\\w+) -->\\s*```json\\s*\\n(.*?)\\n```", Pattern.DOTALL);

  private static final Map<String, SchemaSerde<? extends SpecificRecord>> SERDES = Map.of(
      "Sample", DpSerdes.sample(),
      "ModelRelease", DpSerdes.modelRelease(),
      "RejectedRecord", DpSerdes.rejectedRecord(),
      "DecisionRequest", DpSerdes.decisionRequest(),
      "DecisionResponse", DpSerdes.decisionResponse(),
      "Reward", DpSerdes.reward());

  private record Example(String type, String json) {}

  @Test
  void everyTopicHasAnExampleThatIsWhatTheSerdeWrites() throws IOException {
    List<Example> examples = examples();
    Set<String> covered = new TreeSet<>();
    for (Example example : examples) {
      SchemaSerde<? extends SpecificRecord> serde = SERDES.get(example.type());
      assertTrue(serde != null, "no serde for README example type " + example.type());
      assertEquals(example.json(), roundTrip(serde, example));
      covered.add(example.type());
    }
    assertEquals(new TreeSet<>(SERDES.keySet()), covered, "a README example per record type");
    assertTrue(examples.stream().filter(e -> e.type().equals("Sample")).count() >= 2, "dense and sparse samples");
  }

  private static <T extends SpecificRecord> String roundTrip(SchemaSerde<T> serde, Example example) {
    DecodeResult<T> decoded = serde.decode(example.json().getBytes(StandardCharsets.UTF_8));
    if (decoded instanceof DecodeResult.Decoded<T> value) {
      return serde.toJson(value.value());
    }
    return fail("README example of " + example.type() + " does not decode: " + decoded);
  }

  private static List<Example> examples() throws IOException {
    String readme = Files.readString(RepositoryFiles.root().resolve("README.md"));
    List<Example> examples = new ArrayList<>();
    Matcher matcher = EXAMPLE.matcher(readme);
    while (matcher.find()) {
      examples.add(new Example(matcher.group(1), matcher.group(2).trim()));
    }
    return examples;
  }
}
