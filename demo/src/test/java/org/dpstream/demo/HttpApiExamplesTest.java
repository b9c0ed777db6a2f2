package org.dpstream.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKey;
import org.dpstream.service.config.BanditRegistry;
import org.dpstream.service.config.DeciderConfig;
import org.dpstream.service.decide.Decider;
import org.dpstream.service.decide.DeciderMetrics;
import org.dpstream.service.decide.producer.DecisionService;
import org.dpstream.service.decide.follower.ReleaseFollower;
import org.dpstream.service.decide.follower.ReleasedBandits;
import org.dpstream.service.decide.http.ApiSecurity;
import org.dpstream.service.decide.http.ApiTokens;
import org.dpstream.service.decide.http.DecisionHttpServer;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.testing.RepositoryFiles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code curl} calls of the README, docs/getting-started.md and docs/http-api.md, run with curl as printed (with
 * {@code API} and {@code TOKEN} set as the demo prints them) against the decision API serving the demo's bandit with
 * bearer tokens: each call succeeds, and the answers the docs print have the fields the API answers with. Skipped,
 * saying so, where curl is not installed.
 */
class HttpApiExamplesTest {

  private static final Pattern CURL_BLOCK = Pattern.compile("<!-- example: curl -->\\s*```\\s*\\n(.*?)\\n```", Pattern.DOTALL);
  private static final Pattern DOCUMENTED_ANSWER = Pattern.compile("(?<!-d ')\\{\"requestId\":\"req-1\"[^`\\n]*?\\}");
  private static final List<String> DOCUMENTS = List.of("README.md", "docs/getting-started.md", "docs/http-api.md");
  private static final ObjectMapper JSON = new ObjectMapper();

  private DecisionHttpServer server;
  private String token;

  @BeforeEach
  void serveTheDemosBandit(@TempDir Path directory) throws IOException {
    BanditRegistry registry = new BanditRegistry(Map.of(DemoBandit.ID, DemoBandit.config(20_000).toEntry()));
    ReleasedBandits released = new ReleasedBandits();
    new ReleaseFollower(null, "dp.releases", registry, released);
    Decider decider = new Decider(registry, released, new KeyedNoiseSource(NoiseKey.ofBytes(new byte[NoiseKey.MINIMUM_BYTES])));
    MockProducer<String, byte[]> producer =
        new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer());
    Path tokens = directory.resolve("api-tokens");
    token = ApiTokens.writeNewTokenFile(tokens, "docs");
    ApiSecurity security = ApiSecurity.of(DeciderConfig.DEFAULT.withAuthentication("bearer", tokens.toString()));
    server = DecisionHttpServer.start(new DecisionService(decider, Topics.defaults(), producer, 60_000, 1_000,
        new DeciderMetrics(new SimpleMeterRegistry())), security, "127.0.0.1", 0, 1);
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void theDocumentedCurlCallsAreAnsweredAsTheDocsSay(@TempDir Path directory) throws Exception {
    assumeTrue(run(List.of("sh", "-c", "command -v curl"), directory, Map.of()).exitCode() == 0,
        "curl is not installed (apt-get install curl)");
    Map<String, String> environment = Map.of("API", "http://127.0.0.1:" + server.port(), "TOKEN", token);
    Set<String> fields = new TreeSet<>();
    for (String document : DOCUMENTS) {
      Matcher block = CURL_BLOCK.matcher(read(document));
      assertTrue(block.find(), document + " has no curl example");
      List<JsonNode> answers = new ArrayList<>();
      for (String command : block.group(1).split("\n")) {
        Run run = run(List.of("sh", "-c", command + " -w '\\n%{http_code}'"), directory, environment);
        assertEquals(0, run.exitCode(), command);
        String[] lines = run.output().split("\n");
        assertEquals("200", lines[lines.length - 1], document + ": " + command + " answered " + run.output());
        answers.add(JSON.readTree(lines[0]));
      }
      JsonNode decision = answers.get(0);
      assertEquals("req-1", decision.get("requestId").asText());
      assertTrue(decision.get("arm").asInt() >= 0 && decision.get("arm").asInt() < DemoBandit.ARMS, decision.toString());
      assertEquals("GREEDY", decision.get("phase").asText(), "DP-Linear always answers GREEDY");
      assertEquals(JSON.readTree("{\"requestId\":\"req-1\"}"), answers.get(1));
      fields.add(fieldNames(decision));
      fields.add(fieldNames(answers.get(1)));
    }
    int documentedAnswers = 0;
    for (String document : DOCUMENTS) {
      Matcher answer = DOCUMENTED_ANSWER.matcher(read(document));
      while (answer.find()) {
        assertTrue(fields.contains(fieldNames(JSON.readTree(answer.group()))), document + ": " + answer.group()
            + " has other fields than the API's answers " + fields);
        documentedAnswers++;
      }
    }
    assertTrue(documentedAnswers >= 3, "documented answers found: " + documentedAnswers);
  }

  private static String fieldNames(JsonNode answer) {
    List<String> names = new ArrayList<>();
    answer.fieldNames().forEachRemaining(names::add);
    return new TreeSet<>(names).toString();
  }

  private record Run(int exitCode, String output) {}

  private static Run run(List<String> command, Path directory, Map<String, String> environment) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true);
    builder.environment().putAll(environment);
    Process process = builder.start();
    byte[] output = process.getInputStream().readAllBytes();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      return new Run(-1, "timed out");
    }
    return new Run(process.exitValue(), new String(output, StandardCharsets.UTF_8).trim());
  }

  private static String read(String document) throws IOException {
    return Files.readString(RepositoryFiles.root().resolve(document));
  }
}
