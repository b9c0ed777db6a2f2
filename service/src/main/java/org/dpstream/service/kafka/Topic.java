package org.dpstream.service.kafka;

import java.util.Objects;
import org.apache.kafka.common.serialization.Serde;

/**
 * A topic name with the serdes of its keys and values, so that a topology or client cannot pair a
 * topic with the wrong serde.
 *
 * @param <K> key type
 * @param <V> value type
 */
public record Topic<K, V>(String name, Serde<K> keySerde, Serde<V> valueSerde) {

  public Topic {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(keySerde, "keySerde");
    Objects.requireNonNull(valueSerde, "valueSerde");
  }
}
