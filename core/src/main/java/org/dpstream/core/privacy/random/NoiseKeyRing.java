package org.dpstream.core.privacy.random;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The noise keys a process holds: the primary key, under which every new state starts, and retired keys, which
 * only states already bound to them use, each until its next epoch boundary, where it rebinds to the primary
 * key (docs/privacy-layer.md, "Keys, laws and generations"). A key is named by its {@link KeyCheck}; no two keys
 * of a ring have the same check.
 *
 * <p>Rotation: start with the new key as primary and the old one retired; once no state is bound to the old key
 * any more (the service's gauge {@code dpstream.noise.key.bound.states} says so), remove it.
 */
public final class NoiseKeyRing {

  private final KeyedNoiseSource primary;
  private final List<KeyedNoiseSource> retired;

  private NoiseKeyRing(KeyedNoiseSource primary, List<KeyedNoiseSource> retired) {
    this.primary = primary;
    this.retired = List.copyOf(retired);
  }

  /**
   * A ring of a primary key and retired ones.
   *
   * @throws IllegalArgumentException if two of the keys are the same key (same check value)
   */
  public static NoiseKeyRing of(KeyedNoiseSource primary, List<KeyedNoiseSource> retired) {
    Set<KeyCheck> checks = new HashSet<>();
    checks.add(primary.keyCheck());
    for (KeyedNoiseSource key : retired) {
      if (!checks.add(key.keyCheck())) {
        throw new IllegalArgumentException("noise key " + key.keyCheck() + " is listed twice (as primary or retired)");
      }
    }
    return new NoiseKeyRing(primary, retired);
  }

  /** A ring of one key, the primary: states bound to any other key are refused. */
  public static NoiseKeyRing of(KeyedNoiseSource primary) {
    return new NoiseKeyRing(primary, List.of());
  }

  /**
   * The primary key of {@link NoiseKey#fromEnvironment} and the retired keys of
   * {@link NoiseKey#retiredFromEnvironment}. The keys' material is wiped once the sources hold their MAC keys.
   *
   * @throws IllegalStateException if a key is missing or malformed (messages never quote key material)
   * @throws IllegalArgumentException if a key is given twice
   */
  public static NoiseKeyRing fromEnvironment(Map<String, String> environment) {
    NoiseKey primaryKey = NoiseKey.fromEnvironment(environment);
    List<NoiseKey> retiredKeys = NoiseKey.retiredFromEnvironment(environment);
    try {
      List<KeyedNoiseSource> retired = new ArrayList<>();
      retiredKeys.forEach(key -> retired.add(new KeyedNoiseSource(key)));
      return of(new KeyedNoiseSource(primaryKey), retired);
    } finally {
      primaryKey.destroy();
      retiredKeys.forEach(NoiseKey::destroy);
    }
  }

  /** The key new states start under. */
  public KeyedNoiseSource primary() {
    return primary;
  }

  /** The check values of the retired keys, in the order given. */
  public List<KeyCheck> retiredChecks() {
    return retired.stream().map(KeyedNoiseSource::keyCheck).toList();
  }

  /** Whether {@code check} names a retired key of this ring. */
  public boolean isRetired(KeyCheck check) {
    return retired.stream().anyMatch(key -> key.keyCheck().equals(check));
  }

  /** Every key of the ring with its streams moved into {@code scope} ({@link KeyedNoiseSource#scoped}). */
  public NoiseKeyRing scoped(String scope) {
    return map(key -> key.scoped(scope));
  }

  /** Every key of the ring with the streams of {@code kind} ({@link KeyedNoiseSource#kind}). */
  public NoiseKeyRing kind(String kind) {
    return map(key -> key.kind(kind));
  }

  private NoiseKeyRing map(UnaryOperator<KeyedNoiseSource> derive) {
    return new NoiseKeyRing(derive.apply(primary), retired.stream().map(derive).toList());
  }

  /**
   * The noise a state bound to the key {@code check} resumes with, its latest step being in {@code epoch}: the
   * primary key's if it is the primary; a retired key's for the epochs up to {@code epoch} and the primary's
   * for every later one; empty if no key of the ring has that check.
   */
  public Optional<KeyedNoiseSource> resume(KeyCheck check, long epoch) {
    if (primary.keyCheck().equals(check)) {
      return Optional.of(primary);
    }
    return retired.stream().filter(key -> key.keyCheck().equals(check)).findFirst()
        .map(key -> key.handingOverAfter(epoch, primary));
  }

  /**
   * The person's pseudonym under every key of the ring ({@link KeyedNoiseSource#personPseudonym}), the primary's
   * first: a count kept under a retired key is found, and moved to the primary's pseudonym, after a rotation.
   */
  public List<byte[]> personPseudonyms(String unitId, String personId) {
    List<byte[]> pseudonyms = new ArrayList<>(1 + retired.size());
    pseudonyms.add(primary.personPseudonym(unitId, personId));
    retired.forEach(key -> pseudonyms.add(key.personPseudonym(unitId, personId)));
    return pseudonyms;
  }

  /** The ring by its check values, e.g. {@code primary 1f2e..., retired [a0b1...]}: never key material. */
  public String describe() {
    return "primary " + primary.keyCheck() + (retired.isEmpty() ? "" : ", retired " + retiredChecks());
  }

  @Override
  public String toString() {
    return "NoiseKeyRing[" + describe() + "]";
  }
}
