package org.dpstream.service.topology;

import static org.dpstream.service.topology.ContinualReleaseTopologyTest.avro;
import static org.dpstream.service.topology.ContinualReleaseTopologyTest.key;
import static org.dpstream.service.topology.ContinualReleaseTopologyTest.stream;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;
import org.apache.kafka.streams.state.KeyValueStore;
import org.dpstream.core.privacy.random.KeyCheck;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKey;
import org.dpstream.core.privacy.random.NoiseKeyRing;
import org.dpstream.core.state.VersionedState;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.service.config.ModelConfig;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.noise.BoundKeys;
import org.dpstream.service.noise.NoiseContext;
import org.dpstream.service.noise.RefusedStates;
import org.dpstream.service.release.PublishedReleases;
import org.dpstream.service.routing.PlacedState;
import org.dpstream.service.routing.Placement;
import org.dpstream.service.serde.DpSerdes;

/**
 * Operations as the adversary, on the service's topology: between steps the adversary restarts the service with a new
 * key ring (a rotation, a wrong key, the needed key retired or gone), another routingPartitions (a state restored
 * into another placement, as a rebalance onto a changed routing topic would), a declared noise generation, and the
 * model's state kept, lost (a reset changelog) or replaced by an older backup; it crashes a step after its release was
 * seen (a read_uncommitted consumer) and before the commit, so the step is processed again from the earlier state; it
 * replays input records. The key's own rotation rules under every mechanism are {@link
 * org.dpstream.core.online.KeyRotationPropertiesTest}'s; this adds placement, loss, backups and replays through the
 * topology.
 *
 * <p>The property: every value ever seen on dp.releases has noise coordinates (the key of its epoch, named by the state
 * written with it; the model's placement and noise generation, which scope the stream; its epoch and step), and no two
 * values with the same coordinates differ, so two published values share a noise draw only as bit-identical replays.
 * Each stream's committed steps are consecutive from 1.
 */
class OperationsAdversaryPropertiesTest {

  /** The fixture's model with a horizon of 4, so that runs cross epochs and rotations hand over. */
  private static final ModelConfig MODEL = new ModelConfig("linear", 3, "squared", "1.5", 2, 1, 1e-5, 4, 1, 2,
      null, null, "zcdp", 1);
  private static final KeyedNoiseSource[] KEYS = {
    new KeyedNoiseSource(TopologyFixture.key()),
    new KeyedNoiseSource(NoiseKey.ofBytes(
        HexFormat.of().parseHex("b0b1b2b3b4b5b6b7b8b9babbbcbdbebfc0c1c2c3c4c5c6c7c8c9cacbcccdcecf"))),
    new KeyedNoiseSource(NoiseKey.ofBytes(
        HexFormat.of().parseHex("d0d1d2d3d4d5d6d7d8d9dadbdcdddedfe0e1e2e3e4e5e6e7e8e9eaebecedeeef"))),
  };
  private static final int ROWS = 400;
  private static final double[][] DATA = stream(ROWS);

  /** What the adversary does next. */
  sealed interface Operation permits Steps, ReplayInput, CrashAfterRelease, Restart {}

  /** The next {@code count} samples of the stream. */
  record Steps(int count) implements Operation {}

  /** The last sample sent again (at-least-once delivery). */
  record ReplayInput() implements Operation {}

  /** One step whose release is seen but whose transaction aborts; it is processed again from the earlier state. */
  record CrashAfterRelease() implements Operation {}

  /**
   * A restart: ring (primary KEYS[primary], retired the others in the mask), routingPartitions, the configured noise
   * generation, and the state: 0 kept, 1 lost, 2 an older backup (the one {@code backupAge} states back).
   */
  record Restart(int primary, int retiredMask, int routingPartitions, int generation, int state, int backupAge)
      implements Operation {}

  @Provide
  Arbitrary<List<Operation>> operations() {
    Arbitrary<Operation> steps = Arbitraries.integers().between(1, 9).map(Steps::new);
    Arbitrary<Operation> restart = Combinators.combine(Arbitraries.integers().between(0, KEYS.length - 1),
        Arbitraries.integers().between(0, (1 << KEYS.length) - 1), Arbitraries.of(1, 1, 2, 3),
        Arbitraries.of(0, 0, 0, 1, 2), Arbitraries.of(0, 0, 1, 2), Arbitraries.integers().between(1, 8))
        .as(Restart::new);
    Arbitrary<Operation> operation = Arbitraries.frequencyOf(
        Tuple.of(5, steps), Tuple.of(4, restart), Tuple.of(1, Arbitraries.just(new ReplayInput())),
        Tuple.of(2, Arbitraries.just(new CrashAfterRelease())));
    return operation.list().ofMinSize(2).ofMaxSize(10);
  }

  @Property(tries = 40, seed = "30307")
  void noTwoPublishedValuesShareANoiseDrawUnlessTheyAreBitIdenticalReplays(
      @ForAll("operations") List<Operation> operations) throws IOException {
    Path root = Files.createTempDirectory("operations-adversary");
    try (World world = new World(root)) {
      for (Operation operation : operations) {
        world.apply(operation);
      }
      world.checkConsecutive();
      Statistics.label("a crashed step published again").collect(world.replayedCrashes > 0);
      Statistics.label("a model refused or misplaced").collect(world.refusedSamples > 0);
      Statistics.label("a later noise generation published").collect(world.laterGenerations > 0);
      Statistics.label("an epoch under another key than the first").collect(world.rotatedReleases > 0);
    } finally {
      delete(root);
    }
    // The scenarios the property is about must occur, or it would pass by never meeting them.
    Statistics.label("a crashed step published again").coverage(c -> c.check(true).percentage(p -> p > 10));
    Statistics.label("a model refused or misplaced").coverage(c -> c.check(true).percentage(p -> p > 10));
    Statistics.label("a later noise generation published").coverage(c -> c.check(true).percentage(p -> p > 5));
    Statistics.label("an epoch under another key than the first").coverage(c -> c.check(true).percentage(p -> p > 5));
  }

  /** Where a release's noise comes from: its epoch's key, the stream's scope, and its coordinates in the stream. */
  record Coordinates(KeyCheck key, int routingPartitions, int home, int generation, long epoch, long step) {}

  /** The service as the adversary runs it, and everything seen on dp.releases. */
  private static final class World implements AutoCloseable {
    private final Path root;
    private int instances;
    private int nextRow;
    private Restart setting = new Restart(0, 0, 1, 0, 0, 1);
    private TopologyFixture service;
    /** Every state the store held after a step, oldest first: the backups an operator could restore. */
    private final List<byte[]> states = new ArrayList<>();
    /** What a read_committed consumer of dp.releases saw, in order. */
    private final List<ModelRelease> committed = new ArrayList<>();
    private final Map<Coordinates, List<Double>> seen = new HashMap<>();
    int replayedCrashes;
    int refusedSamples;
    int laterGenerations;
    int rotatedReleases;

    World(Path root) {
      this.root = root;
      service = open(null);
    }

    void apply(Operation operation) {
      if (operation instanceof Steps steps) {
        for (int i = 0; i < steps.count() && nextRow < ROWS; i++) {
          step(nextRow++, true);
        }
      } else if (operation instanceof ReplayInput) {
        step(Math.max(0, nextRow - 1), true);
      } else if (operation instanceof CrashAfterRelease) {
        crashAfterRelease();
      } else if (operation instanceof Restart restart) {
        byte[] state = states.isEmpty() || restart.state() == 1 ? null
            : states.get(Math.max(0, states.size() - 1 - (restart.state() == 0 ? 0 : restart.backupAge())));
        service.close();
        setting = restart;
        service = open(state);
      }
    }

    /** One sample; its release, if any, is seen, and committed unless {@code commit} is false. */
    private void step(int row, boolean commit) {
      service.samples.pipeInput(key(MODEL.id()), avro(DATA[row]));
      // a refused or misplaced model rejects its samples: nothing is drawn
      refusedSamples += service.rejected.readValuesToList().size();
      List<ModelRelease> releases = service.releases.readValuesToList();
      assertTrue(releases.size() <= 1, "one release per sample");
      if (releases.isEmpty()) {
        return;
      }
      ModelRelease release = releases.get(0);
      byte[] stored = store().get(MODEL.id());
      Placement home = Placement.of(MODEL.id(), setting.routingPartitions());
      KeyCheck key = VersionedState.peekKey(PlacedState.open(MODEL.id(), home, stored)).orElseThrow();
      Coordinates coordinates = new Coordinates(key, home.partitions(), home.partition(), generationOf(release),
          release.getEpoch(), release.getStep());
      List<Double> earlier = seen.putIfAbsent(coordinates, release.getParameters());
      assertTrue(earlier == null || earlier.equals(release.getParameters()),
          "two published values drawn at " + coordinates + ": " + earlier + " and " + release.getParameters());
      if (commit) {
        committed.add(release);
        states.add(stored);
        laterGenerations += coordinates.generation() > 0 ? 1 : 0;
        rotatedReleases += key.equals(KEYS[0].keyCheck()) ? 0 : 1;
      }
    }

    /** The release of the next sample is seen, the transaction aborts, and a restarted task processes it again. */
    private void crashAfterRelease() {
      if (nextRow >= ROWS) {
        return;
      }
      byte[] before = store().get(MODEL.id());
      int seenBefore = seen.size();
      step(nextRow, false);
      boolean released = seen.size() > seenBefore;
      service.close();
      service = open(before);
      int committedBefore = committed.size();
      step(nextRow++, true);
      replayedCrashes += released && committed.size() > committedBefore ? 1 : 0;
    }

    private KeyValueStore<String, byte[]> store() {
      return service.driver.getKeyValueStore(ContinualReleaseTopology.MODEL_STATE_STORE);
    }

    /** A fresh instance under the current setting whose store restores {@code state} (null: nothing). */
    private TopologyFixture open(byte[] state) {
      List<KeyedNoiseSource> retired = new ArrayList<>();
      for (int k = 0; k < KEYS.length; k++) {
        if (k != setting.primary() && (setting.retiredMask() & (1 << k)) != 0) {
          retired.add(KEYS[k]);
        }
      }
      // The start-up scan of dp.releases reads what was committed.
      PublishedReleases published = PublishedReleases.empty();
      for (ModelRelease release : committed) {
        published.add(release.getModelId(), DpSerdes.modelRelease().encode(release));
      }
      NoiseContext noise = new NoiseContext(NoiseKeyRing.of(KEYS[setting.primary()], retired), published,
          new RefusedStates(), new BoundKeys());
      ServiceConfig config = new ServiceConfig("dpstream-test", null,
          List.of(MODEL.withNoiseGeneration(setting.generation())), Map.of(), 0)
          .withRoutingPartitions(setting.routingPartitions());
      TopologyFixture fixture = new TopologyFixture(root.resolve("instance-" + instances++), config, noise);
      if (state != null) {
        fixture.driver.<String, byte[]>getKeyValueStore(ContinualReleaseTopology.MODEL_STATE_STORE)
            .put(MODEL.id(), state);
      }
      return fixture;
    }

    /** Each noise generation of the model committed steps 1, 2, 3, ... once each, in one placement or another. */
    void checkConsecutive() {
      Map<Integer, Long> last = new HashMap<>();
      for (ModelRelease release : committed) {
        int generation = generationOf(release);
        long previous = last.getOrDefault(generation, 0L);
        assertEquals(previous + 1, release.getStep(), "generation " + generation + " after step " + previous);
        last.put(generation, release.getStep());
      }
    }

    @Override
    public void close() {
      service.close();
    }
  }

  private static int generationOf(ModelRelease release) {
    Integer generation = release.getLedger().getGeneration();
    return generation == null ? 0 : generation;
  }

  private static void delete(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> {
        try {
          Files.delete(path);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
  }
}
