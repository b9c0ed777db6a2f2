package org.dpstream.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.dpstream.service.testing.CommandRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code dpstream run}: what it says about a config, a Kafka setting or a noise key it cannot use, before anything connects. */
class RunCommandTest {

  /** A config that loads: one model, a broker address nothing listens on (never reached by these tests). */
  private static final String VALID = """
      applicationId: cli-test
      metricsPort: 0
      kafka:
        bootstrap.servers: localhost:1
      models:
        - id: m
          dimension: 2
          loss: squared
          p: "2"
          radius: 1
          epsilon: 1
          delta: 1.0e-5
          horizon: 100
          featureNormBound: 1
          labelBound: 1
      """;

  @TempDir Path work;

  /** Runs {@code run --config FILE} with {@code yaml} and the given environment; returns exit code and stderr. */
  private CommandRun runWith(String yaml, Map<String, String> environment) throws IOException {
    Path file = work.resolve("dpstream.yaml");
    Files.writeString(file, yaml);
    CommandLine cli = ServiceCli.commandLine();
    CommandLine run = cli.getSubcommands().get("run");
    ((RunCommand) run.getCommand()).environment = environment;
    return CommandRun.of(cli, "run", "--config", file.toString());
  }

  /** Exit code 2 and exactly one line on stderr, starting "run: " and containing {@code expected}, no trace. */
  private void assertOneLineConfigError(String yaml, String expected) throws IOException {
    CommandRun outcome = runWith(yaml, Map.of());
    assertEquals(2, outcome.exitCode(), outcome.err());
    assertEquals(1, outcome.err().lines().count(), "one line:\n" + outcome.err());
    assertTrue(outcome.err().startsWith("run: ") && outcome.err().contains(expected),
        "expected '" + expected + "' in: " + outcome.err());
    assertFalse(outcome.err().contains("Exception") || outcome.err().contains("org.dpstream"),
        "no stack trace or class names: " + outcome.err());
    assertEquals("", outcome.out());
  }

  @Test
  void yamlThatDoesNotParseIsOneLineWithItsPosition() throws IOException {
    assertOneLineConfigError("applicationId: \"unterminated\nmodels: []\n", "not valid YAML");
    assertOneLineConfigError("applicationId: \"unterminated\nmodels: []\n", "(line ");
  }

  @Test
  void anUnknownKeyIsNamedWithItsPlace() throws IOException {
    assertOneLineConfigError(VALID + "modles: []\n", "unknown key \"modles\"");
    assertOneLineConfigError(VALID + "    labelBund: 1\n", "unknown key \"labelBund\" at models[0]");
  }

  @Test
  void aValueOfTheWrongTypeOrRangeNamesTheKey() throws IOException {
    assertOneLineConfigError(VALID.replace("dimension: 2", "dimension: two"), "models[0].dimension");
    assertOneLineConfigError(VALID.replace("epsilon: 1", "epsilon: -1"), "model m");
    assertOneLineConfigError(VALID.replace("metricsPort: 0", "metricsPort: [1]"), "metricsPort");
  }

  @Test
  void aMissingRequiredKeyIsNamed() throws IOException {
    assertOneLineConfigError(VALID.replace("applicationId: cli-test\n", ""), "missing key applicationId");
    assertOneLineConfigError(VALID.replace("    horizon: 100\n", ""), "missing key models[0].horizon");
  }

  @Test
  void aBadKafkaSettingIsNamedBeforeAnythingConnects() throws IOException {
    assertOneLineConfigError(VALID.replace("bootstrap.servers: localhost:1",
        "bootstrap.servers: localhost:1\n  processing.guarantee: exactly_twice"), "processing.guarantee");
    assertOneLineConfigError(VALID.replace("bootstrap.servers: localhost:1", "num.stream.threads: many"),
        "kafka.bootstrap.servers is required");
  }

  @Test
  void badStaticMembershipSettingsAreNamed() throws IOException {
    assertOneLineConfigError(VALID + "instanceId: \"two words\"\n", "instanceId must be");
    assertOneLineConfigError(VALID.replace("bootstrap.servers: localhost:1",
        "bootstrap.servers: localhost:1\n  group.instance.id: a") + "instanceId: b\n", "not both");
  }

  @Test
  void badTopicCreationSettingsAreNamed() throws IOException {
    assertOneLineConfigError(VALID + "createTopics:\n  partitions: 0\n", "createTopics.partitions");
    assertOneLineConfigError(VALID + "createTopics:\n  configs:\n    smaples: {retention.ms: \"1\"}\n",
        "createTopics.configs.smaples");
  }

  @Test
  void aMissingNoiseKeyIsOneLineNamingTheVariables() throws IOException {
    CommandRun outcome = runWith(VALID, Map.of());
    assertEquals(2, outcome.exitCode(), outcome.err());
    assertEquals(1, outcome.err().lines().count(), outcome.err());
    assertTrue(outcome.err().contains("DPSTREAM_NOISE_KEY"), outcome.err());
  }

  @Test
  void aMalformedNoiseKeyIsOneLineThatDoesNotQuoteTheKey() throws IOException {
    CommandRun outcome = runWith(VALID, Map.of("DPSTREAM_NOISE_KEY", "c2VjcmV0"));
    assertEquals(2, outcome.exitCode(), outcome.err());
    assertEquals(1, outcome.err().lines().count(), outcome.err());
    assertFalse(outcome.err().contains("c2VjcmV0"), outcome.err());
  }

  /** A bandit, whose deciders serve the decision API on its default port. */
  private static final String WITH_BANDIT = VALID + """
      bandits:
        - {id: offers, dimension: 2, arms: 2, link: identity, radius: 1, preSelectionGap: "0.1", epsilon: 1,
           delta: 1.0e-5, horizon: 1000, contextBound: 1, rewardBound: 1, rewardTimeout: 10s}
      """;

  @Test
  void aDecisionApiWithoutAuthenticationSettingsRefusesToStartNamingTheSetting() throws IOException {
    assertOneLineConfigError(WITH_BANDIT, "decider.authentication is not set");
    assertOneLineConfigError(WITH_BANDIT + "decider: {authentication: bearer}\n", "needs a token file");
    assertOneLineConfigError(WITH_BANDIT + "decider: {authentication: bearer, tokensFile: /nonexistent/tokens}\n",
        "decider.tokensFile: the token file /nonexistent/tokens does not exist");
    CommandRun fromEnvironment = runWith(WITH_BANDIT, Map.of("DPSTREAM_API_TOKENS_FILE", "/nonexistent/env-tokens"));
    assertEquals(2, fromEnvironment.exitCode(), fromEnvironment.err());
    assertTrue(fromEnvironment.err().contains("/nonexistent/env-tokens"), fromEnvironment.err());
    // Without an API (or with authentication: none) it gets as far as the noise key.
    for (String decider : new String[] {"decider: {httpPort: -1}\n", "decider: {authentication: none}\n"}) {
      CommandRun outcome = runWith(WITH_BANDIT + decider, Map.of());
      assertEquals(2, outcome.exitCode(), outcome.err());
      assertTrue(outcome.err().contains("DPSTREAM_NOISE_KEY"), outcome.err());
    }
  }

  @Test
  void aMissingConfigFileIsOneLine() {
    CommandRun run = CommandRun.service("run", "--config", work.resolve("nope.yaml").toString());
    assertEquals(2, run.exitCode());
    assertTrue(run.err().startsWith("run: config file ") && run.err().contains("does not exist"), run.err());
  }
}
