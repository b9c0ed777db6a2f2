package org.dpstream.service.serde;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
 * Every record the docs show decodes with its topic's serde and is exactly what the serde writes for the decoded
 * record, so the examples cannot drift from the schemas: the JSON examples ({@code <!-- example: Type -->}) of
 * README.md, docs/topics-and-schemas.md and docs/getting-started.md, and the values of the {@code consume}
 * transcripts ({@code <!-- example: consume TOPIC -->}). docs/topics-and-schemas.md shows every record type.
 */
class TopicExamplesTest {

  static final List<String> DOCUMENTS = List.of("README.md", "docs/topics-and-schemas.md", "docs/getting-started.md");

  private static final Pattern EXAMPLE =
      Pattern.compile("<!-- example: (\\w+) -->\\s*```json\\s*\\n(.*?)\\n```", Pattern.DOTALL);
  private static final Pattern CONSUMED =
      Pattern.compile("<!-- example: consume ([\\w.]+) -->\\s*```\\s*\\n(.*?)\\n```", Pattern.DOTALL);
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final Map<String, SchemaSerde<? extends SpecificRecord>> SERDES = Map.of(
      "Sample", DpSerdes.sample(),
      "ModelRelease", DpSerdes.modelRelease(),
      "BanditStepRelease", DpSerdes.banditStepRelease(),
      "RejectedRecord", DpSerdes.rejectedRecord(),
      "DecisionRequest", DpSerdes.decisionRequest(),
      "DecisionResponse", DpSerdes.decisionResponse(),
      "Reward", DpSerdes.reward());

  private static final Map<String, String> TYPE_OF_TOPIC = Map.of(
      "dp.samples", "Sample", "dp.releases", "ModelRelease", "dp.rejected", "RejectedRecord",
      "dp.contexts", "DecisionRequest", "dp.decisions", "DecisionResponse", "dp.rewards", "Reward");

  private record Example(String document, String type, String json) {}

  @Test
  void everyJsonExampleIsWhatTheSerdeWrites() throws IOException {
    Set<String> coveredInReference = new TreeSet<>();
    int samplesInReadme = 0;
    for (String document : DOCUMENTS) {
      for (Example example : examples(document, EXAMPLE)) {
        assertEquals(example.json(), roundTrip(example), example.document() + ": " + example.type());
        if (document.equals("docs/topics-and-schemas.md")) {
          coveredInReference.add(example.type());
        }
        samplesInReadme += document.equals("README.md") && example.type().equals("Sample") ? 1 : 0;
      }
    }
    assertEquals(new TreeSet<>(SERDES.keySet()), coveredInReference, "docs/topics-and-schemas.md: an example per type");
    assertTrue(samplesInReadme >= 1, "the README shows a sample");
  }

  /** The values {@code consume} printed in the docs are records of their topic, as the service writes them. */
  @Test
  void everyConsumedValueIsWhatTheSerdeWrites() throws IOException {
    int values = 0;
    for (String document : DOCUMENTS) {
      Matcher block = CONSUMED.matcher(read(document));
      while (block.find()) {
        String type = TYPE_OF_TOPIC.get(block.group(1));
        assertTrue(type != null, document + ": no record type for topic " + block.group(1));
        for (String line : block.group(2).split("\n")) {
          JsonNode printed = JSON.readTree(line);
          assertTrue(printed.has("key") && printed.has("partition") && printed.has("offset"), line);
          Example example = new Example(document, type, JSON.writeValueAsString(printed.get("value")));
          assertEquals(JSON.readTree(example.json()), JSON.readTree(roundTrip(example)), document + ": " + line);
          values++;
        }
      }
    }
    assertTrue(values >= 3, "consume transcripts found: " + values);
  }

  private static <T extends SpecificRecord> String roundTrip(Example example) {
    @SuppressWarnings("unchecked")
    SchemaSerde<T> serde = (SchemaSerde<T>) SERDES.get(example.type());
    assertTrue(serde != null, example.document() + ": no serde for example type " + example.type());
    DecodeResult<T> decoded = serde.decode(example.json().getBytes(StandardCharsets.UTF_8));
    if (decoded instanceof DecodeResult.Decoded<T> value) {
      return serde.toJson(value.value());
    }
    return fail(example.document() + ": example of " + example.type() + " does not decode: " + decoded);
  }

  private static List<Example> examples(String document, Pattern pattern) throws IOException {
    List<Example> examples = new ArrayList<>();
    Matcher matcher = pattern.matcher(read(document));
    while (matcher.find()) {
      examples.add(new Example(document, matcher.group(1), matcher.group(2).trim()));
    }
    return examples;
  }

  private static String read(String document) throws IOException {
    return Files.readString(RepositoryFiles.root().resolve(document));
  }
}
