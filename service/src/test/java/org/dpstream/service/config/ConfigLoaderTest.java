package org.dpstream.service.config;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.dpstream.core.online.AccountantChoice;
import org.dpstream.core.online.IncrementClipping;
import org.dpstream.core.online.NoiseChoice;
import org.dpstream.core.online.OnlineModelSpec;
import org.junit.jupiter.api.Test;

class ConfigLoaderTest {

  private static final String MODEL = """
      models:
        - id: m
          dimension: 3
          loss: squared
          p: "inf"
          radius: 1
          epsilon: 1
          delta: 1.0e-6
          horizon: 1000
          featureNormBound: 1
          labelBound: 1
          gradientClip: null
          differenceClip: 0.5
          accountant: zcdp
          releaseEvery: 10
      """;

  @Test
  void theShippedExampleConfigLoads() {
    ServiceConfig config = ConfigLoader.load(Path.of("..", "config", "dpstream.yaml"));
    assertEquals("dpstream", config.applicationId());
    assertEquals("localhost:9092", config.kafka().get("bootstrap.servers"));
    OnlineModelSpec spec = config.registry().find("lr-p1.5").orElseThrow().spec();
    assertEquals(1.5, spec.p());
    assertEquals(AccountantChoice.AUTO, spec.accountant());
    assertEquals(NoiseChoice.DISCRETE, spec.noise());
  }

  /** metrics: public series by default; raw on request; per-model series for every model up to the limit. */
  @Test
  void theMetricsSectionChoosesRawSeriesAndTheModelsWithSeries() {
    String header = "applicationId: a\nkafka:\n  bootstrap.servers: b:9092\n";
    ServiceConfig defaults = ConfigLoader.parse(header + MODEL, "test");
    assertEquals(false, defaults.metrics().raw());
    assertEquals(java.util.Set.of("m"), defaults.modelsWithSeries());
    ServiceConfig limited = ConfigLoader.parse(header + "metrics:\n  raw: true\n  perModelLimit: 0\n" + MODEL, "test");
    assertEquals(true, limited.metrics().raw());
    assertEquals(java.util.Set.of(), limited.modelsWithSeries(), "over the limit, only listed models");
    assertEquals(java.util.Set.of("m"), ConfigLoader.parse(
        header + "metrics:\n  perModelLimit: 0\n  models: [m]\n" + MODEL, "test").modelsWithSeries());
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
        () -> ConfigLoader.parse(header + "metrics:\n  models: [n]\n" + MODEL, "test"));
    assertEquals("metrics.models: n is not a configured model", unknown.getMessage());
  }

  @Test
  void noiseIsDiscreteByDefaultWhereItAppliesAndContinuousOnRequest() {
    String header = "applicationId: a\nkafka:\n  bootstrap.servers: b:9092\n";
    assertEquals(NoiseChoice.DISCRETE,
        ConfigLoader.parse(header + MODEL, "test").registry().find("m").orElseThrow().spec().noise());
    assertEquals(NoiseChoice.CONTINUOUS, ConfigLoader.parse(header + MODEL + "    noise: continuous\n", "test")
        .registry().find("m").orElseThrow().spec().noise());
    // No exact sampler for the paper's accountant: continuous by default there, no error; p = 1 is discrete by
    // default under zcdp (DP-POFW's fixed-point vertex choice) and continuous on request.
    assertEquals(NoiseChoice.CONTINUOUS, ConfigLoader.parse(header + MODEL.replace("accountant: zcdp", "accountant: paper"),
        "test").registry().find("m").orElseThrow().spec().noise());
    assertEquals(NoiseChoice.DISCRETE, ConfigLoader.parse(header + MODEL.replace("\"inf\"", "\"1\""),
        "test").registry().find("m").orElseThrow().spec().noise());
    assertEquals(NoiseChoice.CONTINUOUS, ConfigLoader.parse(header + MODEL.replace("\"inf\"", "\"1\"")
        + "    noise: continuous\n", "test").registry().find("m").orElseThrow().spec().noise());
    assertEquals(NoiseChoice.CONTINUOUS, ConfigLoader.parse(header + MODEL.replace("\"inf\"", "\"1\"")
        .replace("accountant: zcdp", "accountant: paper"), "test").registry().find("m").orElseThrow().spec().noise());
    String discrete = MODEL + "    noise: discrete\n";
    assertEquals(NoiseChoice.DISCRETE,
        ConfigLoader.parse(header + discrete, "test").registry().find("m").orElseThrow().spec().noise());

    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
        () -> ConfigLoader.parse(header + MODEL + "    noise: exact\n", "cfg.yaml"));
    assertTrue(unknown.getMessage().contains("noise must be continuous or discrete"), unknown.getMessage());
    IllegalArgumentException paper = assertThrows(IllegalArgumentException.class,
        () -> ConfigLoader.parse(header + discrete.replace("accountant: zcdp", "accountant: paper"), "cfg.yaml"));
    assertTrue(paper.getMessage().contains("noise: discrete needs accountant zcdp or auto"), paper.getMessage());
    IllegalArgumentException pOnePaper = assertThrows(IllegalArgumentException.class, () -> ConfigLoader.parse(
        header + discrete.replace("\"inf\"", "\"1\"").replace("accountant: zcdp", "accountant: paper"), "cfg.yaml"));
    assertTrue(pOnePaper.getMessage().contains("noise: discrete needs accountant zcdp or auto"), pOnePaper.getMessage());
  }

  @Test
  void specsAreBuiltWithOverridesAndDefaults() {
    ServiceConfig config = ConfigLoader.parse("applicationId: a\nkafka:\n  bootstrap.servers: b:9092\n" + MODEL, "test");
    ModelRegistry.Entry entry = config.registry().find("m").orElseThrow();
    assertEquals(Double.POSITIVE_INFINITY, entry.spec().p());
    assertEquals(0.5, entry.spec().clipBounds().difference());
    // Derived L for the squared loss: (X r + Y) X = (1 * 1 + 1) * 1.
    assertEquals(2.0, entry.spec().clipBounds().gradient());
    assertEquals(10, entry.releaseEvery());
    assertEquals("dp.samples", config.topics().samples());
  }

  @Test
  void mistakesAreReportedWithTheirPlace() {
    IllegalArgumentException misspelt = assertThrows(IllegalArgumentException.class,
        () -> ConfigLoader.parse("applicationId: a\nmodles: []\n", "cfg.yaml"));
    assertTrue(misspelt.getMessage().contains("modles"), misspelt.getMessage());

    IllegalArgumentException badP = assertThrows(IllegalArgumentException.class,
        () -> ConfigLoader.parse("applicationId: a\n" + MODEL.replace("\"inf\"", "\"0.5\""), "cfg.yaml"));
    assertTrue(badP.getMessage().contains("model m") && badP.getMessage().contains("p must be"), badP.getMessage());

    IllegalArgumentException duplicate = assertThrows(IllegalArgumentException.class,
        () -> ConfigLoader.parse("applicationId: a\n" + MODEL + MODEL.replace("models:\n", ""), "cfg.yaml"));
    assertTrue(duplicate.getMessage().contains("twice"), duplicate.getMessage());

    assertThrows(IllegalArgumentException.class, () -> ConfigLoader.load(Path.of("no-such-file.yaml")));
  }

  @Test
  void theClipBlockAndTheLearningRateReachTheSpec() {
    String fixed = MODEL.replace("\"inf\"", "\"1.5\"")
        + "    clip: {mode: fixed, norm: 2}\n    learningRate: 3\n";
    OnlineModelSpec spec = ConfigLoader.parse("applicationId: a\n" + fixed, "t").registry().find("m").orElseThrow().spec();
    assertEquals(IncrementClipping.fixed(2), spec.incrementClipping());
    assertEquals(3, spec.learningRate());
    OnlineModelSpec defaults = ConfigLoader.parse("applicationId: a\n" + MODEL, "t").registry().find("m").orElseThrow()
        .spec();
    assertEquals(IncrementClipping.ADAPTIVE, defaults.incrementClipping()); // p > 1, accountant auto
    assertEquals(1, defaults.learningRate());
    String tuned = MODEL.replace("\"inf\"", "\"1.5\"") + "    clip: {mode: adaptive, quantile: 0.9, budgetShare: 0.1}\n";
    assertEquals(IncrementClipping.adaptive(0.9, 0.1),
        ConfigLoader.parse("applicationId: a\n" + tuned, "t").registry().find("m").orElseThrow().spec().incrementClipping());
    String pOneDefault = "applicationId: a\n" + MODEL.replace("\"inf\"", "\"1\"");
    assertEquals(IncrementClipping.WORST_CASE,
        ConfigLoader.parse(pOneDefault, "t").registry().find("m").orElseThrow().spec().incrementClipping());

    for (String bad : new String[] {"{mode: fixed}", "{mode: adaptive, norm: 1}", "{mode: worst-case, norm: 1}",
        "{mode: fixed, norm: -1}", "{mode: adaptive, quantile: 1}", "{mode: adaptive, budgetShare: 0.6}",
        "{mode: fixed, norm: 1, quantile: 0.5}", "{mode: sometimes}"}) {
      String text = "applicationId: a\n" + MODEL.replace("\"inf\"", "\"1.5\"") + "    clip: " + bad + "\n";
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> ConfigLoader.parse(text, "t").registry(), bad);
      assertTrue(e.getMessage().contains("model m") && e.getMessage().contains("clip"), e.getMessage());
    }
    String pOne = "applicationId: a\n" + MODEL.replace("\"inf\"", "\"1\"") + "    clip: {mode: fixed, norm: 1}\n";
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ConfigLoader.parse(pOne, "t").registry());
    assertTrue(e.getMessage().contains("p > 1"), e.getMessage());
  }

  @Test
  void featureBoundsScaleTheModelsSamples() {
    String header = "applicationId: a\nkafka:\n  bootstrap.servers: b:9092\n";
    OnlineModelSpec plain = ConfigLoader.parse(header + MODEL, "test").registry().find("m").orElseThrow().spec();
    assertNull(plain.featureScaling());
    OnlineModelSpec scaled = ConfigLoader.parse(header + MODEL + "    featureBounds: [250, 0.5, 1e4]\n", "test")
        .registry().find("m").orElseThrow().spec();
    assertArrayEquals(new double[] {250, 0.5, 1e4}, scaled.featureScaling().toArray());
    assertEquals(plain.clipBounds(), scaled.clipBounds(), "featureNormBound and the clips are in the scaled units");
  }

  @Test
  void badFeatureBoundsAreReportedByKey() {
    String header = "applicationId: a\nkafka:\n  bootstrap.servers: b:9092\n";
    String[][] cases = {
        {"[1, 2]", "model m: featureBounds has 2 entries, the model's dimension is 3"},
        {"[1, 0, 2]", "model m: featureBounds[1] must be a finite number > 0, got 0.0"},
        {"[1, 2, -3]", "model m: featureBounds[2] must be a finite number > 0, got -3.0"},
        {"[1, 1e999, 2]", "model m: featureBounds[1] must be a finite number > 0, got Infinity"},
        {"[1, .nan, 2]", "models[0].featureBounds[1]"},
        {"[1, null, 2]", "model m: featureBounds[1] must be a finite number > 0, got null"},
        {"[1, 2, 1e-320]", "model m: featureBounds: a parameter of the radius 1.0 divided by the bound"},
        {"[1, wide, 2]", "models[0].featureBounds[1]"},
        {"4", "models[0].featureBounds"},
    };
    for (String[] c : cases) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> ConfigLoader.parse(header + MODEL + "    featureBounds: " + c[0] + "\n", "cfg.yaml"), c[0]);
      assertTrue(e.getMessage().contains(c[1]), c[0] + ": " + e.getMessage());
      assertFalse(e.getMessage().contains("org.dpstream"), e.getMessage());
    }
  }
}
