package org.dpstream.service.config;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import org.dpstream.core.online.OnlineModelSpec;

/** The configured models, looked up by the model id a sample is keyed with. */
public final class ModelRegistry {

  /**
   * A model's spec, how often its parameters are published, its noise generation (0 unless declared) and its privacy
   * unit (whose k the spec's participations are).
   */
  public record Entry(OnlineModelSpec spec, int releaseEvery, int noiseGeneration, PrivacyUnit unit) {

    public Entry {
      if (unit.participations() != spec.participations()) {
        throw new IllegalArgumentException("model " + spec.modelId() + ": privacy unit " + unit
            + " but the spec is accounted for " + spec.participations() + " participations; this is a bug");
      }
    }

    /** An event-level model. */
    public Entry(OnlineModelSpec spec, int releaseEvery, int noiseGeneration) {
      this(spec, releaseEvery, noiseGeneration, PrivacyUnit.EVENT);
    }

    /** An event-level model of noise generation 0. */
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
