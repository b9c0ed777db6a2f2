package org.dpstream.service.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.dpstream.core.online.EstimatorFactory;
import org.dpstream.core.online.OnlineEstimator;
import org.dpstream.core.online.OnlineEstimators;
import org.dpstream.core.online.OnlineModelSpec;
import org.dpstream.core.online.StepOutcome;
import org.dpstream.core.privacy.accounting.PrivacyLedger;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.service.metrics.MicrometerModelMetrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A model that throws half-way through a step (after its in-memory estimator moved on, before the store
 * was written) must not stop anything: the record goes to dp.rejected as PROCESSING_ERROR, the error is
 * counted, and this model and the others go on, this one from its stored state, so its releases are
 * exactly those of a run without the failing record.
 */
class ProcessingErrorTest {

  /** The label that makes the failing model's step throw. */
  private static final double POISON_LABEL = 0.3125;

  @TempDir Path stateDir;

  /** Steps the real estimator, then throws on the poison label: a half-done step that mutated memory. */
  private static final class HalfSteppingEstimator implements OnlineEstimator {
    private final OnlineEstimator delegate;

    HalfSteppingEstimator(OnlineEstimator delegate) {
      this.delegate = delegate;
    }

    @Override
    public StepOutcome step(double[] features, double label) {
      StepOutcome outcome = delegate.step(features, label);
      if (label == POISON_LABEL) {
        throw new IllegalStateException("simulated failure after the step, label " + label);
      }
      return outcome;
    }

    @Override
    public OnlineModelSpec spec() {
      return delegate.spec();
    }

    @Override
    public long steps() {
      return delegate.steps();
    }

    @Override
    public long epoch() {
      return delegate.epoch();
    }

    @Override
    public double[] parameters() {
      return delegate.parameters();
    }

    @Override
    public PrivacyLedger ledger() {
      return delegate.ledger();
    }

    @Override
    public String mechanism() {
      return delegate.mechanism();
    }

    @Override
    public void writeState(DataOutput out) throws IOException {
      delegate.writeState(out);
    }
  }

  private static final EstimatorFactory FAILING_LINEAR = new EstimatorFactory() {
    @Override
    public OnlineEstimator start(OnlineModelSpec spec, KeyedNoiseSource noise) {
      return wrap(OnlineEstimators.start(spec, noise));
    }

    @Override
    public OnlineEstimator restore(OnlineModelSpec spec, DataInput in, KeyedNoiseSource noise) throws IOException {
      return wrap(OnlineEstimators.restore(spec, in, noise));
    }

    private OnlineEstimator wrap(OnlineEstimator estimator) {
      return estimator.spec().modelId().equals("linear") ? new HalfSteppingEstimator(estimator) : estimator;
    }
  };

  private static byte[] linear(double a, double b, double c, double label) {
    return String.format(Locale.ROOT, "{\"features\": [%s, %s, %s], \"label\": %s}", a, b, c, label)
        .getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] logistic(int index, double label) {
    return String.format(Locale.ROOT,
        "{\"features\": {\"dimension\": 6, \"indices\": [%d], \"values\": [0.5]}, \"label\": %s}", index, label)
        .getBytes(StandardCharsets.UTF_8);
  }

  private static double[] row(int t) {
    return new double[] {0.5 * Math.sin(t), 0.5 * Math.cos(t), 0.25, 0.1 * t % 1};
  }

  @Test
  void aRecordThatThrowsIsRejectedCountedAndTheModelsGoOn() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    byte[] poison = linear(0.1, 0.2, 0.3, POISON_LABEL);
    try (TopologyFixture fixture = new TopologyFixture(stateDir, new MicrometerModelMetrics(registry), FAILING_LINEAR)) {
      for (int t = 0; t < 10; t++) {
        double[] r = row(t);
        if (t == 5) {
          fixture.samples.pipeInput("linear".getBytes(StandardCharsets.UTF_8), poison);
        }
        fixture.samples.pipeInput("linear".getBytes(StandardCharsets.UTF_8), linear(r[0], r[1], r[2], r[3]));
        fixture.samples.pipeInput("logistic".getBytes(StandardCharsets.UTF_8), logistic(t % 6, t % 2));
      }

      List<RejectedRecord> rejected = fixture.rejected.readValuesToList();
      assertEquals(1, rejected.size());
      RejectedRecord rejection = rejected.get(0);
      assertEquals("PROCESSING_ERROR", rejection.getReason());
      assertEquals("processing failed with java.lang.IllegalStateException", rejection.getMessage());
      assertFalse(rejection.getMessage().contains("0.3125"), "no data in the message");
      ByteBuffer original = rejection.getOriginalValue();
      byte[] originalBytes = new byte[original.remaining()];
      original.get(originalBytes);
      assertArrayEquals(poison, originalBytes);

      // The failing model went on from its stored state: its releases are a run without the poison record.
      OnlineEstimator direct = OnlineEstimators.start(TopologyFixture.LINEAR.toSpec(),
          TopologyFixture.noiseOf(TopologyFixture.LINEAR.id()));
      List<ModelRelease> releases = fixture.releases.readValuesToList();
      List<ModelRelease> linearReleases = releases.stream().filter(r -> r.getModelId().equals("linear")).toList();
      assertEquals(10, linearReleases.size());
      for (int t = 0; t < 10; t++) {
        double[] r = row(t);
        direct.step(new double[] {r[0], r[1], r[2]}, r[3]);
        ModelRelease release = linearReleases.get(t);
        assertEquals(t + 1, release.getStep());
        double[] parameters = release.getParameters().stream().mapToDouble(Double::doubleValue).toArray();
        assertArrayEquals(direct.parameters(), parameters, "step " + (t + 1));
      }
      // The other model was not disturbed: 10 steps, released every 2nd.
      assertEquals(5, releases.stream().filter(r -> r.getModelId().equals("logistic")).count());

      assertEquals(1.0, registry.get("dpstream.processing.errors").tag("model", "linear").counter().count());
      assertEquals(1.0, registry.get("dpstream.samples.rejected.by.reason").tag("reason", "PROCESSING_ERROR").counter().count());
      assertTrue(registry.find("dpstream.processing.errors").tag("model", "logistic").counters().isEmpty());
    }
  }
}
