package org.dpstream.service.config;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import org.dpstream.core.online.OnlineModelSpec;

/** The configured models, looked up by the model id a sample is keyed with. */
public final class ModelRegistry {

  /** A model's spec, how often its parameters are published, and its noise generation (0 unless declared). */
  public record Entry(OnlineModelSpec spec, int releaseEvery, int noiseGeneration) {

    /** A model of noise generation 0. */
    public Entry(OnlineModelSpec spec, int releaseEvery) {
      this(spec, releaseEvery, 0);
    }
  }

  private final Map<String, Entry> byId;

  public ModelRegistry(Map<String, Entry> byId) {
    this.byId = Map.copyOf(byId);
  }

  public Optional<Entry> find(String modelId) {
    return Optional.ofNullable(byId.get(modelId));
  }

  public Collection<Entry> all() {
    return byId.values();
  }
}
