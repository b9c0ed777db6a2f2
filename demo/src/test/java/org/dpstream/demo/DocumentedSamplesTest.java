package org.dpstream.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.dpstream.schemas.DecisionRequest;
import org.dpstream.schemas.DenseFeatures;
import org.dpstream.schemas.Sample;
import org.dpstream.schemas.SparseFeatures;
import org.dpstream.service.config.ConfigLoader;
import org.dpstream.service.config.ModelConfig;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.service.testing.RepositoryFiles;
import org.junit.jupiter.api.Test;

/**
 * A sample the docs tell a user to send reaches a model that exists where it is sent, with the model's dimension: the
 * README's samples (JSON, Java, Python) go to the demo, the annotated config {@code run} is pointed at, the minimal
 * config the README shows and docker-compose's config; the getting-started walkthrough's records go to the demo's
 * models and bandit; the {@code curl} calls name the demo's bandit with a context of its dimension. Following the
 * README can then not end in UNKNOWN_MODEL or WRONG_DIMENSION.
 */
class DocumentedSamplesTest {

  private static final Pattern KEYED_JSON = Pattern.compile("'([^'|]+)\\|(\\{[^']*\\})'");
  private static final Pattern JAVA_SAMPLE = Pattern.compile("\"(dp\\.samples)\", \"([^\"]+)\",\\s*\"(\\{.*?\\})\"\\)", Pattern.DOTALL);
  private static final Pattern PYTHON_SAMPLE = Pattern.compile("produce\\(\"dp\\.samples\", key=\"([^\"]+)\",\\s*value=json\\.dumps\\((\\{.*?\\})\\)\\)", Pattern.DOTALL);
  private static final Pattern CURL = Pattern.compile("-d '(\\{[^']*\\})' \\$API/v1/bandits/([^/]+)/(decide|reward)");
  private static final Pattern RUN_CONFIG = Pattern.compile("dpstream\\.jar run --config (\\S+)");

  private final Path root = RepositoryFiles.root();

  @Test
  void theReadmesSamplesReachAModelOfTheirDimensionWhereverTheReadmeSendsThem() throws IOException {
    String readme = read("README.md");
    Matcher java = JAVA_SAMPLE.matcher(block(readme, "java"));
    assertTrue(java.find(), "the Java example sends a sample");
    Matcher python = PYTHON_SAMPLE.matcher(block(readme, "python"));
    assertTrue(python.find(), "the Python example sends a sample");
    // (model id, dimension) of each sample; the JSON sample is the one the Java example sends
    List<Map.Entry<String, Integer>> sent = List.of(
        Map.entry(java.group(2), dimension(block(readme, "Sample"))),
        Map.entry(java.group(2), dimension(java.group(3).replace("\\\"", "\""))),
        Map.entry(python.group(1), dimension(python.group(2))));
    List<Map<String, Integer>> destinations = new ArrayList<>();
    destinations.add(DemoModel.defaults().stream().collect(Collectors.toMap(DemoModel::id, DemoModel::dimension)));
    Matcher run = RUN_CONFIG.matcher(readme);
    assertTrue(run.find(), "the README runs the service with a config");
    destinations.add(dimensions(ConfigLoader.load(root.resolve(run.group(1)))));
    destinations.add(dimensions(ConfigLoader.parse(block(readme, "config"), "README.md")));
    destinations.add(dimensions(ConfigLoader.load(root.resolve("deploy/dpstream.yaml"))));
    for (Map<String, Integer> models : destinations) {
      for (Map.Entry<String, Integer> sample : sent) {
        assertEquals(sample.getValue(), models.get(sample.getKey()),
            "model " + sample.getKey() + " among " + models + ": a sample of dimension " + sample.getValue());
      }
    }
  }

  /** getting-started's kcat lines: samples for the demo's models, contexts of the demo's bandit. */
  @Test
  void theWalkthroughsRecordsNameTheDemosModelsAndBandit() throws IOException {
    Set<String> models = DemoModel.defaults().stream().map(DemoModel::id).collect(Collectors.toSet());
    int records = 0;
    for (String document : List.of("README.md", "docs/getting-started.md")) {
      Matcher line = KEYED_JSON.matcher(read(document));
      while (line.find()) {
        String key = line.group(1);
        byte[] value = bytes(line.group(2));
        if (key.equals(DemoBandit.ID)) {
          if (line.group(2).contains("\"context\"")) {
            DecisionRequest request = DpSerdes.decisionRequest().decodeOrThrow(value);
            assertEquals(DemoBandit.DIMENSION, request.getContext().size(), line.group());
          } else {
            DpSerdes.reward().decodeOrThrow(value);
          }
        } else {
          assertTrue(models.contains(key), document + ": " + key + " is no model of the demo " + models);
          DpSerdes.sample().decodeOrThrow(value);
        }
        records++;
      }
    }
    assertTrue(records >= 5, "records found: " + records);
  }

  @Test
  void theCurlCallsNameTheDemosBanditWithAContextOfItsDimension() throws IOException {
    Set<String> documented = new TreeSet<>();
    for (String document : List.of("README.md", "docs/getting-started.md", "docs/http-api.md")) {
      Matcher call = CURL.matcher(read(document));
      while (call.find()) {
        assertEquals(DemoBandit.ID, call.group(2), document);
        if (call.group(3).equals("decide")) {
          int dimension = DpSerdes.decisionRequest().decodeOrThrow(bytes(call.group(1))).getContext().size();
          assertEquals(DemoBandit.DIMENSION, dimension, document + ": " + call.group());
        }
        documented.add(document + " " + call.group(3));
      }
    }
    assertEquals(6, documented.size(), "a decide and a reward call in each of the three documents: " + documented);
  }

  private static Map<String, Integer> dimensions(ServiceConfig config) {
    return config.models().stream().collect(Collectors.toMap(ModelConfig::id, ModelConfig::dimension));
  }

  private static int dimension(String sampleJson) {
    Sample sample = DpSerdes.sample().decodeOrThrow(bytes(sampleJson));
    return sample.getFeatures() instanceof DenseFeatures dense ? dense.getValues().size()
        : ((SparseFeatures) sample.getFeatures()).getDimension();
  }

  private static String block(String document, String name) {
    Matcher matcher = Pattern.compile("<!-- example: " + Pattern.quote(name) + " -->\\s*```\\w*\\n(.*?)\\n```",
        Pattern.DOTALL).matcher(document);
    assertTrue(matcher.find(), "no example block " + name);
    return matcher.group(1);
  }

  private String read(String document) throws IOException {
    return Files.readString(root.resolve(document));
  }

  private static byte[] bytes(String json) {
    return json.getBytes(StandardCharsets.UTF_8);
  }
}
