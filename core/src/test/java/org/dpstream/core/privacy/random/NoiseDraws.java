package org.dpstream.core.privacy.random;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * The record of every noise draw of a run: for each coordinate a mechanism asked its {@link NoiseStream} for, in
 * order, the stream (purpose, id, scope, part, kind), the coordinate (epoch, index) and how many values it drew from
 * it. Two runs on neighbouring data under one key must leave equal records: the noise a mechanism draws, where it
 * goes and how much of it there is must not depend on the data.
 */
public final class NoiseDraws implements NoiseDrawObserver {

  /** One coordinate drawn: {@code values} is the number of calls to its bits (longs, ints, doubles, ...). */
  public record Draw(String stream, long epoch, long index, long values) {}

  private final List<String> streams = new ArrayList<>();
  private final List<long[]> coordinates = new ArrayList<>();
  private final List<CountingBits> bits = new ArrayList<>();

  /** {@code source}, every draw of every mechanism built from it recorded here. */
  public KeyedNoiseSource recording(KeyedNoiseSource source) {
    return source.observedBy(this);
  }

  @Override
  public UniformRandomProvider drawn(String stream, long epoch, long index, UniformRandomProvider delegate) {
    CountingBits counting = new CountingBits(delegate);
    streams.add(stream);
    coordinates.add(new long[] {epoch, index});
    bits.add(counting);
    return counting;
  }

  /** The draws so far, in order. */
  public List<Draw> draws() {
    List<Draw> draws = new ArrayList<>(streams.size());
    for (int i = 0; i < streams.size(); i++) {
      draws.add(new Draw(streams.get(i), coordinates.get(i)[0], coordinates.get(i)[1], bits.get(i).calls));
    }
    return draws;
  }

  /** Delegates every method a sampler may call (so the values are the stream's own) and counts the calls. */
  private static final class CountingBits implements UniformRandomProvider {
    private final UniformRandomProvider delegate;
    private long calls;

    CountingBits(UniformRandomProvider delegate) {
      this.delegate = delegate;
    }

    @Override
    public long nextLong() {
      calls++;
      return delegate.nextLong();
    }

    @Override
    public int nextInt() {
      calls++;
      return delegate.nextInt();
    }

    @Override
    public double nextDouble() {
      calls++;
      return delegate.nextDouble();
    }

    @Override
    public float nextFloat() {
      calls++;
      return delegate.nextFloat();
    }

    @Override
    public boolean nextBoolean() {
      calls++;
      return delegate.nextBoolean();
    }

    @Override
    public void nextBytes(byte[] bytes) {
      calls++;
      delegate.nextBytes(bytes);
    }

    @Override
    public void nextBytes(byte[] bytes, int start, int len) {
      calls++;
      delegate.nextBytes(bytes, start, len);
    }

    @Override
    public int nextInt(int n) {
      calls++;
      return delegate.nextInt(n);
    }

    @Override
    public long nextLong(long n) {
      calls++;
      return delegate.nextLong(n);
    }
  }
}
