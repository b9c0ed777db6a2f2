package org.dpstream.service.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.online.EstimatorFactory;
import org.dpstream.core.online.OnlineModelSpec;
import org.dpstream.core.online.UndercalibratedEstimators;
import org.dpstream.core.privacy.audit.CanaryDesign;
import org.dpstream.core.privacy.audit.OneRunAudit;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.service.config.ClipConfig;
import org.dpstream.service.config.ModelConfig;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.metrics.ModelMetrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one-run audit (Steinke, Nasr and Jagielski, "Privacy Auditing with One (1) Training Run", 2023) of a model
 * running in the service's topology: m canaries go into one stream, each with a fair coin, and the releases on
 * dp.releases alone must not reveal the coins beyond the model's claimed epsilon.
 *
 * <p><b>The model</b> (a real config): d = 2, squared loss, p = 2, radius r = 0.25, epsilon = 1, delta = 1e-5,
 * horizon 2, zCDP tree with exact discrete noise (the default there), whole-increment clipping at C = 0.2, feature
 * and label bounds 1. <b>The stream</b>: 100 pilot samples x = (0, 1), y = -1, then m = 2000 pairs (canary, pilot).
 * Canary i is x = (1, 0) with y = -1 when its coin is heads (S_i = +1), y = +1 otherwise. Its increment is
 * (theta_1 - y) + k (theta_1(t) - theta_1(t - 1)) along e_1 (squared loss), where |theta_1 - y| >= 1 - r = 0.75 and the
 * second term is at most lr 2r = 0.5 in size (Frank-Wolfe moves theta by (v - theta) / k), so clipping at C = 0.2
 * leaves exactly S_i C e_1: the two choices of a canary are neighbours at the full sensitivity 2C. Pilots add C e_2
 * likewise. Canaries sit at odd steps, the first of a two-step epoch, where the released prefix sum moves by the
 * increment plus one fresh tree node: D_t - D_(t-1) = g_t + Z, Z ~ N_Z(0, sigma^2 I) on the lattice.
 *
 * <p><b>The observation and the score.</b> A release is theta_(t+1) = theta_t + (v_t - theta_t) / (t + 1), so
 * v_t = -r D_t / ||D_t|| is read off two consecutive releases, which gives D_t's direction: D_1 / D_2 = v_1 / v_2.
 * The pilots make D_2 close to C times their count P(t) (their noise is of order sqrt(t) sigma, a few percent of it at
 * the control's sigma), so canary i at step t scores C P(t) (v_1 / v_2 at t minus at t - 1), about S_i C + Z_1. The
 * audit guesses heads for the 100 highest scores, tails for the 100 lowest (r = 200 of m = 2000), and turns the correct
 * guesses into a lower bound on epsilon at delta = 1e-5 with confidence 95 %.
 *
 * <p><b>The negative control</b> draws the noise of a model clipped at C / 10 (noise for a tenth of the sensitivity,
 * {@link UndercalibratedEstimators}, test code only) while clipping at C. {@link #theControlsMarginIsDerived} derives
 * from its sigma that it is caught: the top 5 % of scores lie above tau where 0.5 Phi-bar((tau - C) / sigma) + 0.5
 * Phi-bar((tau + C) / sigma) = 0.05, a guess there is wrong with probability w = 0.5 Phi-bar((tau + C) / sigma) / 0.05,
 * and even 4 standard deviations of Binomial(r, w) more wrong guesses than expected leave a bound above 1 (at the
 * control's sigma = 0.229: tau = 0.495, w = 0.012, 197.6 of 200 expected, 191 or more with 4 standard deviations, a
 * bound of 2.47 there). The same holds by symmetry for the lowest scores.
 */
class OneRunAuditTopologyTest {

  private static final double CLIP = 0.2;
  private static final ModelConfig CANARIES = new ModelConfig("canaries", 2, "squared", "2", 0.25, 1, 1e-5, 2, 1, 1,
      null, null, "zcdp", 1, new ClipConfig("fixed", CLIP), null, null);
  private static final ServiceConfig CONFIG =
      new ServiceConfig("dpstream-test", null, List.of(CANARIES), Map.of(), 0).withRoutingPartitions(1);
  private static final OnlineModelSpec SPEC = CANARIES.toSpec();
  private static final double RADIUS = 0.25;
  private static final int WARM_UP = 100;
  private static final CanaryDesign DESIGN = CanaryDesign.SERVICE;
  private static final OneRunAudit AUDIT = OneRunAudit.of(CANARIES.delta(), 0.05);

  @TempDir Path stateDir;

  @Test
  void theCalibratedModelStaysBelowItsEpsilon() {
    OneRunAudit.Result result = run(EstimatorFactory.PRIVATE, 1L);
    System.out.println("one-run audit, service model (sigma " + format(sigma(1)) + "): " + result);
    assertTrue(result.epsilonLowerBound() < CANARIES.epsilon(), result.toString());
  }

  @Test
  void noiseForATenthOfTheSensitivityIsCaught() {
    OneRunAudit.Result result = run(UndercalibratedEstimators.forSensitivityTimes(DESIGN.controlFactor()), 2L);
    System.out.println("one-run audit, service model with noise for a tenth of the sensitivity (sigma "
        + format(sigma(DESIGN.controlFactor())) + "): " + result);
    assertTrue(result.epsilonLowerBound() > CANARIES.epsilon(), result.toString());
  }

  /** The margin of {@link #noiseForATenthOfTheSensitivityIsCaught}, derived from the control's sigma before it runs. */
  @Test
  void theControlsMarginIsDerived() {
    double sigma = sigma(DESIGN.controlFactor());
    double bound = DESIGN.derivedControlBound(AUDIT, CLIP, sigma);
    System.out.printf(Locale.ROOT, "one-run audit, service model control derived: sigma %.4f, bound with 4 sd more wrong"
        + " guesses than expected %.3f%n", sigma, bound);
    assertTrue(bound > CANARIES.epsilon(), "the control's margin: " + bound);
  }


  private static double sigma(double factor) {
    return UndercalibratedEstimators.treeNodeSigma(SPEC, factor);
  }

  private static String format(double value) {
    return String.format(Locale.ROOT, "%.4f", value);
  }

  private OneRunAudit.Result run(EstimatorFactory estimators, long coinSeed) {
    UniformRandomProvider coins = RandomSource.XO_RO_SHI_RO_128_PP.create(coinSeed);
    boolean[] heads = new boolean[DESIGN.canaries()];
    int[] canaryStep = new int[DESIGN.canaries()];
    int[] pilotsBefore = new int[DESIGN.canaries()];
    try (TopologyFixture fixture =
        new TopologyFixture(stateDir, ModelMetrics.NONE, 1, estimators, CONFIG)) {
      int step = 0;
      int pilots = 0;
      for (int i = 0; i < WARM_UP; i++) {
        fixture.samples.pipeInput(key(), sample(0, 1, -1));
        step++;
        pilots++;
      }
      for (int i = 0; i < DESIGN.canaries(); i++) {
        heads[i] = coins.nextBoolean();
        fixture.samples.pipeInput(key(), sample(1, 0, heads[i] ? -1 : 1));
        step++;
        canaryStep[i] = step;
        pilotsBefore[i] = pilots;
        fixture.samples.pipeInput(key(), sample(0, 1, -1));
        step++;
        pilots++;
      }
      List<ModelRelease> releases = fixture.releases.readValuesToList();
      assertEquals(step, releases.size(), "one release per sample");
      double[][] vertices = vertices(releases);
      double[] scores = new double[DESIGN.canaries()];
      for (int i = 0; i < DESIGN.canaries(); i++) {
        int t = canaryStep[i];
        double[] now = vertices[t];
        double[] before = vertices[t - 1];
        scores[i] = CLIP * pilotsBefore[i] * (now[0] / now[1] - before[0] / before[1]);
      }
      return DESIGN.guess(AUDIT, scores, heads);
    }
  }

  /**
   * v_t for t = 1..n from the releases (theta_(t+1) after step t; theta_1 = 0): v_t = theta_t + (t + 1)(theta_(t+1) -
   * theta_t). Each must lie on the sphere of radius r, which checks the reading.
   */
  private static double[][] vertices(List<ModelRelease> releases) {
    double[][] v = new double[releases.size() + 1][];
    double[] theta = {0, 0};
    for (int t = 1; t <= releases.size(); t++) {
      ModelRelease release = releases.get(t - 1);
      assertEquals(t, release.getStep());
      double[] next = release.getParameters().stream().mapToDouble(Double::doubleValue).toArray();
      v[t] = new double[] {theta[0] + (t + 1) * (next[0] - theta[0]), theta[1] + (t + 1) * (next[1] - theta[1])};
      assertEquals(RADIUS, Math.hypot(v[t][0], v[t][1]), 1e-6, "the vertex of step " + t);
      theta = next;
    }
    return v;
  }

  private static byte[] key() {
    return CANARIES.id().getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] sample(double a, double b, double y) {
    return String.format(Locale.ROOT, "{\"features\": [%s, %s], \"label\": %s}", Double.toString(a),
        Double.toString(b), Double.toString(y)).getBytes(StandardCharsets.UTF_8);
  }
}
