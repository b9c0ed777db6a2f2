package org.dpstream.service.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.dpstream.bandit.hdb.DpHdbSpec;
import org.dpstream.bandit.linear.DpLinearSpec;
import org.dpstream.core.loss.CanonicalLink;
import org.dpstream.core.online.AccountantChoice;
import org.dpstream.core.online.NoiseChoice;
import org.junit.jupiter.api.Test;

class BanditConfigTest {

  private static final String BASE = """
      applicationId: app
      kafka:
        bootstrap.servers: localhost:9092
      models:
        - {id: m, dimension: 2, loss: squared, p: "2", radius: 1, epsilon: 1, delta: 1.0e-5, horizon: 10,
           featureNormBound: 1, labelBound: 1}
      bandits:
      """;

  private static ServiceConfig parse(String bandits) {
    return ConfigLoader.parse(BASE + bandits, "test.yaml");
  }

  @Test
  void theExampleConfigFileHasABandit() {
    ServiceConfig config = ConfigLoader.load(Path.of("..", "config", "dpstream.yaml"));
    BanditRegistry.Entry offers = config.banditRegistry().find("offers").orElseThrow();
    assertEquals(20, offers.spec().dimension());
    assertEquals(4, offers.spec().arms());
    assertEquals(Duration.ofSeconds(30), offers.rewardTimeout());
    assertEquals(BanditConfig.MissingReward.DROP, offers.missingReward());
    assertEquals("offers/arm-3", offers.armModelId(3));
    assertEquals(1, config.registry().all().size(), "the models are still read");
  }

  @Test
  void aBanditIsReadWithDefaultsAndImpute() {
    ServiceConfig config = parse("""
          - {id: b, policy: dp-hdb, dimension: 3, arms: 2, link: logistic, preSelectionGap: inf, t0: 7, epsilon: 2,
             delta: 1.0e-6,
             horizon: 100, rewardBound: 1, rewardTimeout: 500ms, missingReward: impute, defaultReward: 0.5}
        """);
    BanditRegistry.Entry b = config.banditRegistry().find("b").orElseThrow();
    assertEquals(CanonicalLink.LOGISTIC, b.hdb().link());
    assertEquals(Double.POSITIVE_INFINITY, b.hdb().preSelectionGap());
    assertEquals(7, b.hdb().warmUpRoundsPerArm());
    assertEquals(1.0, b.hdb().radius());
    assertEquals(Duration.ofMillis(500), b.rewardTimeout());
    assertEquals(BanditConfig.MissingReward.IMPUTE, b.missingReward());
    assertEquals(0.5, b.defaultReward());
    assertEquals(1, b.releaseEvery());
  }

  /**
   * Without a policy key the default rule decides from (d, K, T, epsilon): DP-Linear where its statistics fit
   * (d &lt;= 1446), DP-HDB beyond, with DP-HDB's defaults (identity link, pre-selection off, the authors' t0).
   */
  @Test
  void withoutAPolicyTheDefaultRuleDecides() {
    ServiceConfig config = parse("""
          - {id: small, dimension: 20, arms: 4, epsilon: 1, delta: 1.0e-5, horizon: 100000, rewardBound: 1.2,
             rewardTimeout: 30s}
          - {id: edge, dimension: 1446, arms: 2, epsilon: 1, delta: 1.0e-5, horizon: 100000, rewardBound: 1,
             rewardTimeout: 30s}
          - {id: wide, dimension: 1447, arms: 2, epsilon: 1, delta: 1.0e-5, horizon: 100000, rewardBound: 1,
             rewardTimeout: 30s}
        """);
    DpLinearSpec small = (DpLinearSpec) config.banditRegistry().find("small").orElseThrow().spec();
    assertEquals(1000, small.refreshEvery());
    assertEquals(AccountantChoice.FACTORIZATION, small.accountant());
    assertEquals("dp-linear", config.banditRegistry().find("edge").orElseThrow().spec().policyName());
    DpHdbSpec wide = config.banditRegistry().find("wide").orElseThrow().hdb();
    assertEquals(CanonicalLink.IDENTITY, wide.link());
    assertEquals(Double.POSITIVE_INFINITY, wide.preSelectionGap());
    assertEquals(DpHdbSpec.defaultWarmUpRoundsPerArm(1447, 100000, 1), wide.warmUpRoundsPerArm());
  }

  @Test
  void aDpLinearBanditIsReadWithItsDefaults() {
    ServiceConfig config = parse("""
          - {id: lin, policy: dp-linear, dimension: 4, arms: 3, epsilon: 1, delta: 1.0e-5, horizon: 1000,
             rewardBound: 1.5, rewardTimeout: 5s}
          - {id: fac, policy: dp-linear, dimension: 2, arms: 2, epsilon: 1, delta: 1.0e-5, horizon: 100,
             rewardBound: 1, rewardTimeout: 5s, contextClip: 2, refreshEvery: 5, accountant: factorization,
             rewardCenter: 0.5}
        """);
    DpLinearSpec lin = (DpLinearSpec) config.banditRegistry().find("lin").orElseThrow().spec();
    assertEquals(1.0, lin.contextClip());
    assertEquals(1.5, lin.rewardClip());
    assertEquals(10, lin.refreshEvery(), "ceil(horizon / 100)");
    assertEquals(AccountantChoice.FACTORIZATION, lin.accountant());
    assertEquals(NoiseChoice.CONTINUOUS, lin.noise());
    assertEquals(0.0, lin.rewardCenter());
    assertEquals("lin/arm-2", config.banditRegistry().find("lin").orElseThrow().armModelId(2));
    DpLinearSpec fac = (DpLinearSpec) config.banditRegistry().find("fac").orElseThrow().spec();
    assertEquals(2.0, fac.contextClip());
    assertEquals(5, fac.refreshEvery());
    assertEquals(AccountantChoice.FACTORIZATION, fac.accountant());
    assertEquals(0.5, fac.rewardCenter());
    assertThrows(IllegalStateException.class, () -> config.banditRegistry().find("lin").orElseThrow().hdb());
  }

  @Test
  void badDpLinearBanditsAreRefusedNamingTheKey() {
    String ok = "{id: lin, policy: dp-linear, dimension: 4, arms: 3, epsilon: 1, delta: 1.0e-5, horizon: 1000,"
        + " rewardBound: 1.5, rewardTimeout: 5s";
    String[][] cases = {
        {ok.replace("dp-linear", "dp-quadratic") + "}", "policy"},
        {ok + ", accountant: paper}", "accountant"},
        {ok + ", refreshEvery: 0}", "refreshEvery"},
        // Past the period whose pending sums stay exact (DpLinearSpec.maxRefreshEvery, 2^20.5 to 2^22 rounds).
        {ok.replace("horizon: 1000", "horizon: 100000000") + ", refreshEvery: 4194304}", "refreshEvery must be at most"},
        {ok + ", contextClip: -1}", "contextClip"},
        {ok.replace("rewardBound: 1.5", "rewardBound: 0") + "}", "rewardBound"}};
    for (String[] bad : cases) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse("  - " + bad[0] + "\n"),
          bad[0]);
      assertTrue(e.getMessage().contains("lin") && e.getMessage().contains(bad[1]), e.getMessage());
    }
  }

  /**
   * noise: discrete by default where it applies (DP-HDB's arms; DP-Linear under zcdp), continuous on request and
   * under factorization; discrete with factorization and unknown values are refused naming the key.
   */
  @Test
  void noiseIsDiscreteByDefaultWhereItAppliesAndContinuousOnRequest() {
    String hdb = "{id: h, policy: dp-hdb, dimension: 3, arms: 2, link: identity, preSelectionGap: inf, t0: 1, epsilon: 1,"
        + " delta: 1.0e-5, horizon: 100, rewardBound: 1, rewardTimeout: 5s";
    String lin = "{id: l, policy: dp-linear, dimension: 2, arms: 2, epsilon: 1, delta: 1.0e-5, horizon: 100,"
        + " rewardBound: 1, rewardTimeout: 5s";
    assertEquals(NoiseChoice.DISCRETE, hdbSpec(parse("  - " + hdb + "}\n")).armNoise());
    assertEquals(NoiseChoice.DISCRETE, hdbSpec(parse("  - " + hdb + "}\n")).armSpec(1).noise());
    DpHdbSpec continuous = hdbSpec(parse("  - " + hdb + ", noise: continuous}\n"));
    assertEquals(NoiseChoice.CONTINUOUS, continuous.armSpec(0).noise());
    assertEquals(NoiseChoice.CONTINUOUS, linearSpec(parse("  - " + lin + "}\n")).noise(), "factorization by default");
    assertEquals(NoiseChoice.DISCRETE, linearSpec(parse("  - " + lin + ", accountant: zcdp}\n")).noise());
    assertEquals(NoiseChoice.CONTINUOUS,
        linearSpec(parse("  - " + lin + ", accountant: zcdp, noise: continuous}\n")).noise());
    assertEquals(NoiseChoice.CONTINUOUS, linearSpec(parse("  - " + lin + ", accountant: factorization}\n")).noise());
    for (String bad : new String[] {lin + ", accountant: factorization, noise: discrete}", hdb + ", noise: exact}"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse("  - " + bad + "\n"), bad);
      assertTrue(e.getMessage().contains("noise"), e.getMessage());
    }
  }

  private static DpHdbSpec hdbSpec(ServiceConfig config) {
    return config.banditRegistry().all().iterator().next().hdb();
  }

  private static DpLinearSpec linearSpec(ServiceConfig config) {
    return (DpLinearSpec) config.banditRegistry().all().iterator().next().spec();
  }

  @Test
  void badBanditsAreRefusedWithTheirName() {
    String ok = "{id: b, policy: dp-hdb, dimension: 3, arms: 2, link: identity, preSelectionGap: \"0.1\", epsilon: 1,"
        + " delta: 1.0e-5, horizon: 100, rewardBound: 1, rewardTimeout: 5s";
    for (String bad : new String[] {
        ok.replace("identity", "probit") + "}",
        ok.replace("5s", "5 parsecs") + "}",
        ok + ", missingReward: impute}",
        ok + ", missingReward: sometimes}",
        ok + ", defaultReward: 1}",
        ok.replace("link: identity", "link: logistic") + ", missingReward: impute, defaultReward: 3}",
        ok.replace("arms: 2", "arms: 0") + "}",
        ok + ", colour: blue}"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse("  - " + bad + "\n"), bad);
      assertTrue(e.getMessage().contains("b") , e.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> parse("  - " + ok + "}\n  - " + ok + "}\n"), "duplicate ids");
    IllegalArgumentException clash = assertThrows(IllegalArgumentException.class,
        () -> ConfigLoader.parse(BASE.replace("id: m,", "id: b/arm-1,") + "  - " + ok + "}\n", "test.yaml"));
    assertTrue(clash.getMessage().contains("b/arm-1"), clash.getMessage());
  }

  /**
   * No model or bandit may take an id another bandit derives: its arms' releases and noise streams ({@code id/arm-i}),
   * DP-HDB's forced-sampling release ({@code id/forced-sampling}), DP-Linear's statistics ({@code id/arm-i/stats}).
   */
  @Test
  void everyIdABanditDerivesIsRefusedAsAnotherModelOrBanditsId() {
    String hdb = "{id: b, policy: dp-hdb, dimension: 3, arms: 2, link: identity, preSelectionGap: \"0.1\", epsilon: 1, delta: 1.0e-5,"
        + " horizon: 100, rewardBound: 1, rewardTimeout: 5s}";
    String linear = "{id: l, policy: dp-linear, dimension: 2, arms: 2, epsilon: 1, delta: 1.0e-5, horizon: 100,"
        + " rewardBound: 1, rewardTimeout: 5s}";
    for (String derived : new String[] {"b/arm-0", "b/forced-sampling", "l/arm-1", "l/arm-1/stats"}) {
      IllegalArgumentException asModel = assertThrows(IllegalArgumentException.class, () -> ConfigLoader.parse(
          BASE.replace("id: m,", "id: " + derived + ",") + "  - " + hdb + "\n  - " + linear + "\n", "test.yaml")
          .banditRegistry(), derived);
      assertTrue(asModel.getMessage().contains(derived) && asModel.getMessage().contains("model id"),
          asModel.getMessage());
      String otherBandit = hdb.replace("id: b,", "id: " + derived + ",");
      IllegalArgumentException asBandit = assertThrows(IllegalArgumentException.class,
          () -> parse("  - " + hdb + "\n  - " + linear + "\n  - " + otherBandit + "\n").banditRegistry(), derived);
      assertTrue(asBandit.getMessage().contains(derived) && asBandit.getMessage().contains("bandit id"),
          asBandit.getMessage());
    }
    parse("  - " + hdb + "\n  - " + linear + "\n").banditRegistry(); // and otherwise both are fine
  }

  /**
   * A bandit's release steps are keyed by its id on dp.releases, so a model of the same id is refused unless the
   * bandit publishes per arm ({@code releaseFormat: arms}); the format is read, and a bad one refused with its key.
   */
  @Test
  void aBanditPublishingStepsMayNotShareItsIdWithAModel() {
    String bandit = "{id: m, policy: dp-hdb, dimension: 3, arms: 2, link: identity, preSelectionGap: \"0.1\","
        + " epsilon: 1, delta: 1.0e-5, horizon: 100, rewardBound: 1, rewardTimeout: 5s";
    IllegalArgumentException clash = assertThrows(IllegalArgumentException.class,
        () -> ConfigLoader.parse(BASE + "  - " + bandit + "}\n", "test.yaml").banditRegistry());
    assertTrue(clash.getMessage().contains("releaseFormat: arms"), clash.getMessage());
    BanditRegistry perArm = ConfigLoader.parse(BASE + "  - " + bandit + ", releaseFormat: arms}\n", "test.yaml")
        .banditRegistry();
    assertEquals(BanditReleaseFormat.ARMS, perArm.find("m").orElseThrow().releaseFormat());
    assertEquals(BanditReleaseFormat.STEP,
        parse("  - " + bandit.replace("id: m,", "id: b,") + "}\n").banditRegistry().find("b").orElseThrow()
            .releaseFormat(), "the default");
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
        () -> parse("  - " + bandit.replace("id: m,", "id: b,") + ", releaseFormat: columns}\n"));
    assertTrue(bad.getMessage().contains("releaseFormat"), bad.getMessage());
  }

  @Test
  void aNoiseGenerationIsReadForModelsAndBanditsAndNegativeOnesAreRefused() {
    String bandit = "{id: b, dimension: 3, arms: 2, link: identity, preSelectionGap: \"0.1\", epsilon: 1,"
        + " delta: 1.0e-5, horizon: 100, rewardBound: 1, rewardTimeout: 5s, noiseGeneration: 2}";
    ServiceConfig config = ConfigLoader.parse(BASE.replace("id: m,", "id: m, noiseGeneration: 3,") + "  - " + bandit
        + "\n", "test.yaml");
    assertEquals(3, config.registry().find("m").orElseThrow().noiseGeneration());
    assertEquals(2, config.banditRegistry().find("b").orElseThrow().noiseGeneration());
    assertEquals(0, parse("").registry().find("m").orElseThrow().noiseGeneration(), "0 unless declared");
    IllegalArgumentException negative = assertThrows(IllegalArgumentException.class, () -> ConfigLoader.parse(
        BASE.replace("id: m,", "id: m, noiseGeneration: -1,"), "test.yaml").registry());
    assertTrue(negative.getMessage().contains("noiseGeneration"), negative.getMessage());
  }

  @Test
  void aPersonLevelBanditIsAccountedForKRoundsAndAnEventLevelOneKeepsItsSpec() {
    String linear = "{id: l, policy: dp-linear, dimension: 2, arms: 2, epsilon: 1, delta: 1.0e-5, horizon: 100,"
        + " rewardBound: 1, rewardTimeout: 5s, privacyUnit: %s}";
    String hdb = "{id: b, policy: dp-hdb, dimension: 3, arms: 3, link: identity, preSelectionGap: \"0.1\", epsilon: 1,"
        + " delta: 1.0e-5, horizon: 100, rewardBound: 1, rewardTimeout: 5s, privacyUnit: %s}";
    ServiceConfig config = parse("  - " + linear.formatted("{by: user, maxContributions: 4}") + "\n  - "
        + hdb.formatted("{by: user, maxContributions: 3, header: x-person}") + "\n");
    BanditRegistry.Entry l = config.banditRegistry().find("l").orElseThrow();
    assertEquals(4, ((DpLinearSpec) l.spec()).participations());
    assertEquals(4, ((DpLinearSpec) l.spec()).statisticsSpec(1).participations());
    assertEquals(4, l.unit().maxContributions());
    BanditRegistry.Entry b = config.banditRegistry().find("b").orElseThrow();
    assertEquals(3, b.hdb().participations());
    assertEquals(3, b.hdb().armSpec(0).participations());
    assertEquals("x-person", b.unit().header());
    // three rounds reach all three arms: a third of the budget each, where one round reaches two (a half each)
    assertTrue(b.hdb().armBudget().epsilon() <= 1.0 / 3 && b.hdb().armBudget().epsilon() > 0.333);

    ServiceConfig event = parse("  - " + linear.formatted("event") + "\n  - " + hdb.formatted("event") + "\n");
    ServiceConfig unnamed = parse("  - " + linear.replace(", privacyUnit: %s", "") + "\n  - "
        + hdb.replace(", privacyUnit: %s", "") + "\n");
    for (String id : new String[] {"l", "b"}) {
      assertEquals(unnamed.banditRegistry().find(id).orElseThrow().spec(),
          event.banditRegistry().find(id).orElseThrow().spec(), "event level is the spec without a unit");
      assertEquals(PrivacyUnit.EVENT, event.banditRegistry().find(id).orElseThrow().unit());
    }
    assertEquals(0.5, event.banditRegistry().find("b").orElseThrow().hdb().armBudget().epsilon());
  }

  @Test
  void aPersonLevelDpLinearOnTheTreeNeedsOneRoundPerLeaf() {
    String tree = "{id: l, policy: dp-linear, accountant: zcdp, dimension: 2, arms: 2, epsilon: 1, delta: 1.0e-5,"
        + " horizon: 100, rewardBound: 1, rewardTimeout: 5s, refreshEvery: %d,"
        + " privacyUnit: {by: user, maxContributions: 3}}";
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
        () -> parse("  - " + tree.formatted(2) + "\n").banditRegistry());
    assertTrue(refused.getMessage().contains("bandit l") && refused.getMessage().contains("refreshEvery: 1"),
        refused.getMessage());
    assertEquals(3, ((DpLinearSpec) parse("  - " + tree.formatted(1) + "\n").banditRegistry().find("l")
        .orElseThrow().spec()).participations());
  }
}
