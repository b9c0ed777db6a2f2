package org.dpstream.service.bandit;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/** In-memory stores of the bandit processor's kinds, for testing its parts alone. */
final class BanditStores {

  private BanditStores() {}

  static KeyValueStore<String, byte[]> bytes(String name) {
    return open(name, Serdes.ByteArray());
  }

  static KeyValueStore<String, Long> longs(String name) {
    return open(name, Serdes.Long());
  }

  private static <V> KeyValueStore<String, V> open(String name, Serde<V> values) {
    KeyValueStore<String, V> store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name), Serdes.String(),
        values).withLoggingDisabled().build();
    store.init(new MockProcessorContext<>().getStateStoreContext(), store);
    return store;
  }
}
