package org.dpstream.bench.jmh;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.geometry.LpBall;
import org.dpstream.core.loss.DataBounds;
import org.dpstream.core.loss.GlmLoss;
import org.dpstream.core.online.AccountantChoice;
import org.dpstream.core.online.IncrementClipping;
import org.dpstream.core.online.NoiseChoice;
import org.dpstream.core.online.OnlineEstimator;
import org.dpstream.core.online.OnlineEstimators;
import org.dpstream.core.online.OnlineModelSpec;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.service.noise.StateBytes;
import org.dpstream.service.routing.PlacedState;
import org.dpstream.service.routing.Placement;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * The stored form of a model's state, as the service writes it after every step: the service's
 * {@link StateBytes} (one Netty buffer, stamp and state in it, one copy out) against {@code java.io}'s
 * {@code DataOutputStream} over a reused {@code ByteArrayOutputStream} followed by {@link PlacedState#stamp}. The
 * model is the service's default (DP-TOFW, adaptive clipping on the exact BLT, discrete noise), stepped 100 times.
 */
public class StateWriteBenchmark extends ThroughputBenchmark {

  @Param({"20", "100"})
  public int dimension;

  private static final Placement HOME = new Placement(2, 6);

  private OnlineEstimator estimator;
  private final StateBytes stateBytes = new StateBytes();
  private final ByteArrayOutputStream javaIoBuffer = new ByteArrayOutputStream();

  @Setup
  public void setUp() throws IOException {
    OnlineModelSpec spec = OnlineModelSpec.withDerivedClipping("bench", dimension, GlmLoss.squared(),
        LpBall.of(1.5, 2), new PrivacyBudget(1, 1e-6), 10_000, new DataBounds(1, 2), AccountantChoice.AUTO)
        .withNoise(NoiseChoice.DISCRETE)
        .withIncrementClipping(IncrementClipping.ADAPTIVE);
    estimator = OnlineEstimators.start(spec, BenchmarkInputs.keyedSource(4L));
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(5L);
    double[] features = new double[dimension];
    for (int step = 0; step < 100; step++) {
      for (int i = 0; i < dimension; i++) {
        features[i] = (rng.nextDouble() - 0.5) / dimension;
      }
      estimator.step(features, rng.nextDouble() * 2 - 1);
    }
    if (!Arrays.equals(javaIo(), stateBytes())) {
      throw new IllegalStateException("the two ways wrote different bytes");
    }
  }

  @Benchmark
  public byte[] stateBytes() {
    return stateBytes.stamped(HOME, 0, estimator::writeState);
  }

  @Benchmark
  public byte[] javaIo() throws IOException {
    javaIoBuffer.reset();
    estimator.writeState(new DataOutputStream(javaIoBuffer));
    return PlacedState.stamp(HOME, 0, javaIoBuffer.toByteArray());
  }
}
