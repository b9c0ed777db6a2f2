package org.dpstream.core.privacy.random;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Arrays;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.dpstream.core.privacy.testing.TestKeys;

/**
 * No two streams of different coordinates share a stream key: for any (kind, id, purpose, scope, part) tuples, any
 * strings (empty ones, markers' bytes and all), distinct tuples give distinct HMAC inputs. In particular a stream of
 * a bandit's kind is never a model's stream (which has no kind), whatever ids the configuration gives them.
 */
class StreamDerivationPropertiesTest {

  private static final KeyedNoiseSource KEY = new KeyedNoiseSource(TestKeys.seeded(3));

  /** One stream's coordinates; an empty optional is a field the source does not have. */
  record Coordinates(Optional<String> kind, String id, String purpose, Optional<String> scope, Optional<String> part) {
    byte[] input() {
      KeyedNoiseSource source = KEY;
      if (kind.isPresent()) {
        source = source.kind(kind.get());
      }
      if (scope.isPresent()) {
        source = source.scoped(scope.get());
      }
      if (part.isPresent()) {
        source = source.part(part.get());
      }
      return source.derivationInput(purpose, id);
    }
  }

  @Provide
  Arbitrary<Coordinates> coordinates() {
    // Short strings over a small alphabet (with NUL, slash and bytes of the markers) make near-collisions likely.
    Arbitrary<String> text = Arbitraries.strings().withChars('a', '/', '\u0000', '\u00ff', '-').ofMaxLength(4);
    Arbitrary<String> ids = Arbitraries.oneOf(text, Arbitraries.of("offers3/arm-0/stats", "offers3/arm-0", "offers3",
        "offers3/forced-sampling"));
    Arbitrary<String> purposes = Arbitraries.oneOf(text, Arbitraries.of("tree", "blt", "report-noisy-max"));
    return Combinators.combine(text.optional(), ids, purposes, text.optional(), text.optional()).as(Coordinates::new);
  }

  @Property(tries = 3000, seed = "1111")
  void distinctCoordinatesNeverEncodeAlike(@ForAll("coordinates") Coordinates a, @ForAll("coordinates") Coordinates b) {
    if (!a.equals(b)) {
      assertFalse(Arrays.equals(a.input(), b.input()), a + " and " + b + " encode alike");
    }
  }

  @Property(tries = 1000, seed = "2222")
  void aStreamOfAKindIsNeverAModelsStream(@ForAll("coordinates") Coordinates model, @ForAll("coordinates") Coordinates other) {
    Coordinates asModel = new Coordinates(Optional.empty(), model.id(), model.purpose(), model.scope(), model.part());
    Coordinates ofKind = new Coordinates(Optional.of(other.kind().orElse("dp-linear/statistics")), model.id(),
        model.purpose(), model.scope(), model.part());
    assertFalse(Arrays.equals(asModel.input(), ofKind.input()));
  }
}
