package org.dpstream.service.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.dpstream.core.online.EstimatorFactory;
import org.dpstream.core.online.OnlineEstimator;
import org.dpstream.core.online.OnlineEstimators;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.service.config.ModelConfig;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.metrics.ModelMetrics;
import org.dpstream.service.routing.Placement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A model with {@code featureBounds}: samples in their own units (one feature in the thousands, one in
 * hundredths) are scaled before the estimator, releases carry the parameters in those original units, and
 * samples beyond their bounds, up to +-Double.MAX_VALUE, are clamped and learnt from, never rejected.
 */
class FeatureBoundsTopologyTest {

  private static final ModelConfig SCALED = new ModelConfig("scaled", 3, "squared", "2", 1, 1, 1e-5, 64, 1.5, 2,
      null, null, "zcdp", 1, null, null, null, List.of(1000.0, 0.01, 1.0));
  private static final ServiceConfig CONFIG =
      new ServiceConfig("dpstream-test", null, List.of(SCALED), Map.of(), 0).withRoutingPartitions(1);

  @TempDir Path stateDir;

  private static String json(double a, double b, double c, double y) {
    return String.format(Locale.ROOT, "{\"features\": [%s, %s, %s], \"label\": %s}", Double.toString(a),
        Double.toString(b), Double.toString(c), Double.toString(y));
  }

  @Test
  void releasesAreTheScaledEstimatorsInOriginalUnitsAndOutOfBoundSamplesAreLearnt() {
    double[][] rows = new double[40][];
    for (int t = 0; t < rows.length; t++) {
      double a = 900 * Math.sin(0.7 * t);
      double b = 0.009 * Math.cos(1.3 * t);
      double c = Math.sin(0.2 * t + 1);
      rows[t] = new double[] {a, b, c, 0.001 * a - 50 * b};
    }
    rows[7] = new double[] {Double.MAX_VALUE, -1e300, 5, 1};
    rows[21] = new double[] {-2000, 0.02, -Double.MAX_VALUE, -1};
    OnlineEstimator direct = OnlineEstimators.start(SCALED.toSpec(),
        Placement.of(SCALED.id(), CONFIG.routingPartitions()).noise(new KeyedNoiseSource(TopologyFixture.key())));
    try (TopologyFixture fixture = new TopologyFixture(stateDir, ModelMetrics.NONE, 1, EstimatorFactory.PRIVATE,
        CONFIG)) {
      for (double[] row : rows) {
        fixture.samples.pipeInput("scaled".getBytes(StandardCharsets.UTF_8),
            json(row[0], row[1], row[2], row[3]).getBytes(StandardCharsets.UTF_8));
      }
      assertTrue(fixture.rejected.isEmpty(), "samples beyond their bounds are clamped, not rejected");
      List<ModelRelease> released = fixture.releases.readValuesToList();
      assertEquals(rows.length, released.size());
      for (int t = 0; t < rows.length; t++) {
        direct.step(new double[] {rows[t][0], rows[t][1], rows[t][2]}, rows[t][3]);
        double[] parameters = released.get(t).getParameters().stream().mapToDouble(Double::doubleValue).toArray();
        assertArrayEquals(direct.parameters(), parameters, "step " + (t + 1));
        for (double w : parameters) {
          assertTrue(Double.isFinite(w));
        }
      }
      assertTrue(released.get(0).getAlgorithm().endsWith("/featureBounds(original units)"),
          released.get(0).getAlgorithm());
      // In original units the weight of the feature bounded by 0.01 can reach radius / 0.01 = 100, far outside
      // the unit ball the scaled parameters live in: the release is not in the scaled units.
      double[] last = direct.parameters();
      double[] scaledBack = {last[0] * 1000, last[1] * 0.01, last[2]};
      double norm = Math.sqrt(scaledBack[0] * scaledBack[0] + scaledBack[1] * scaledBack[1] + scaledBack[2] * scaledBack[2]);
      assertTrue(norm <= 1 + 1e-12, "the scaled parameters lie in the radius-1 ball: " + norm);
    }
  }
}
