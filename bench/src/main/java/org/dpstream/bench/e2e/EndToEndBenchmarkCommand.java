package org.dpstream.bench.e2e;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.dpstream.core.privacy.random.NoiseKey;
import org.dpstream.service.config.ModelConfig;
import org.dpstream.service.config.ServiceConfig;
import org.dpstream.service.kafka.TopicNames;
import org.dpstream.service.kafka.TopicSpec;
import org.dpstream.service.kafka.Topics;
import org.dpstream.service.streams.DpstreamService;
import org.dpstream.service.streams.StreamsSettings;
import org.dpstream.testkit.EmbeddedKafka;
import org.dpstream.testkit.TemporaryDirectory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code dpstream-bench e2e}: end-to-end samples per second through an embedded broker with
 * exactly-once, for the dpstream service and for two pass-through topologies on the same input, in one
 * run: straight through, and through the service's routing (the least a topology with one task per
 * model pays). The input is written once before any starts; each topology reads it from the beginning
 * under its own application id, with the service's Streams settings, and is timed until its last
 * output is committed. The pass-throughs run first, so if anything warms up across runs (the page
 * cache, the JIT of the shared client code) it favours the baselines, not dpstream.
 */
@Command(
    name = "e2e",
    mixinStandardHelpOptions = true,
    description = "End-to-end throughput through a real (embedded) broker with exactly-once: dpstream vs pass-through.")
public final class EndToEndBenchmarkCommand implements Callable<Integer> {

  private static final String PASS_THROUGH_OUTPUT = "bench.passthrough";
  private static final String ROUTED_PASS_THROUGH_OUTPUT = "bench.passthrough.routed";
  private static final String DPSTREAM_APPLICATION = "bench-dpstream";
  private static final Duration STALL = Duration.ofSeconds(120);

  @Spec CommandSpec spec;

  /** One key for the run: the fresh instance that restores the state resumes it under the key it was written with. */
  private final NoiseKey noiseKey = NoiseKey.random();

  @Option(names = "--samples", defaultValue = "1000000", description = "samples in the stream (default: ${DEFAULT-VALUE})")
  long samples;

  @Option(names = "--d", defaultValue = "20", description = "feature dimension (default: ${DEFAULT-VALUE})")
  int dimension;

  @Option(names = "--partitions", defaultValue = "4", description = "partitions of every topic (default: ${DEFAULT-VALUE})")
  int partitions;

  @Option(names = "--models", defaultValue = "4", split = ",", description = "models, model m on partition m mod"
      + " partitions; a list (e.g. 4,10000) measures each count in this JVM, each on a broker of its own, and"
      + " prints each rate against the first's; the first is measured last, so whatever warms up across"
      + " measurements favours it (default: ${DEFAULT-VALUE})")
  List<Integer> modelCounts;

  /** The model count of the measurement under way. */
  private int models;

  @Option(names = "--live-models", description = "models each task keeps loaded (liveModelsPerTask; default: the"
      + " service's, " + ServiceConfig.DEFAULT_LIVE_MODELS_PER_TASK + ")")
  Integer liveModels;

  @Option(names = "--rest", defaultValue = "0s", converter = org.dpstream.service.cli.DurationConverter.class,
      description = "how long the service rests after the last output before its heap is measured, e.g. 75s: past a"
      + " minute the tasks have dropped their idle models (default: ${DEFAULT-VALUE})")
  Duration rest;

  @Option(names = "--threads", defaultValue = "1", description = "Kafka Streams threads per topology (default: ${DEFAULT-VALUE})")
  int threads;

  @Option(names = "--kafka", description = "a Kafka Streams or client setting for both topologies, on top of the"
      + " service's defaults, e.g. --kafka commit.interval.ms=1000 (repeatable)")
  Map<String, String> kafkaSettings = new HashMap<>();

  @Option(names = "--seed", defaultValue = "1", description = "seed of the synthetic stream (default: ${DEFAULT-VALUE})")
  long seed;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    if (samples < 1 || dimension < 1 || partitions < 1 || threads < 1 || modelCounts.stream().anyMatch(n -> n < 1)) {
      throw new IllegalArgumentException("--samples, --d, --partitions, --models and --threads must be positive");
    }
    out.println(MachineFacts.describe());
    // The baseline, the first count, is measured last: the JIT's and the page cache's warm-up favour it, not the others.
    Throughput[] byCount = new Throughput[modelCounts.size()];
    for (int i = modelCounts.size() - 1; i >= 0; i--) {
      models = modelCounts.get(i);
      byCount[i] = measureModels(out);
    }
    List<Throughput> rates = List.of(byCount);
    if (rates.size() > 1) {
      Throughput first = rates.get(0);
      for (int i = 1; i < rates.size(); i++) {
        printRatio(out, String.format(Locale.ROOT, "%,d models / %,d models in this run", modelCounts.get(i),
            modelCounts.get(0)), rates.get(i), first, "");
      }
    }
    out.flush();
    return 0;
  }

  /** One measurement of {@link #models} models on a broker of its own: pass-through, dpstream, footprint, restore. */
  private Throughput measureModels(PrintWriter out) throws Exception {
    out.printf(Locale.ROOT, "e2e: %,d samples, d = %d, %d models over %d partitions, %d stream thread(s), exactly_once_v2,"
        + " live models per task %s%s%n", samples, dimension, models, partitions, threads,
        liveModels == null ? ServiceConfig.DEFAULT_LIVE_MODELS_PER_TASK + " (default)" : liveModels,
        kafkaSettings.isEmpty() ? "" : ", kafka settings " + new java.util.TreeMap<>(kafkaSettings));
    out.flush();
    try (TemporaryDirectory stateDirectory = TemporaryDirectory.create("dpstream-bench-state-");
        EmbeddedKafka kafka = EmbeddedKafka.start()) {
      Path stateRoot = stateDirectory.path();
      Topics topics = Topics.defaults();
      List<NewTopic> newTopics = new ArrayList<>(topics.newTopics(partitions));
      newTopics.add(TopicSpec.of(PASS_THROUGH_OUTPUT, partitions).newTopic());
      newTopics.add(TopicSpec.of(ROUTED_PASS_THROUGH_OUTPUT, partitions).newTopic());
      kafka.createTopics(newTopics);

      long producing = System.nanoTime();
      long bytes = SamplePreProducer.produce(kafka.bootstrapServers(), topics.samples().name(), samples, models,
          dimension, partitions, seed);
      requireRecords(kafka, topics.samples().name(), samples);
      out.printf(Locale.ROOT, "pre-produced %,d samples (%,d bytes of values) in %.1f s%n", samples, bytes,
          (System.nanoTime() - producing) / 1e9);
      out.flush();

      Throughput passThrough = measure("pass-through", kafka, () -> startBaseline(kafka,
          "bench-passthrough", stateRoot.resolve("passthrough"),
          config -> PassThroughTopology.build(topics.samples().name(), PASS_THROUGH_OUTPUT)),
          PASS_THROUGH_OUTPUT);
      out.println(passThrough.describe());
      out.flush();
      Throughput routedPassThrough = measure("routed pass-through", kafka,
          () -> startBaseline(kafka, "bench-passthrough-routed", stateRoot.resolve("passthrough-routed"),
              config -> PassThroughTopology.buildRouted(topics.samples().name(), ROUTED_PASS_THROUGH_OUTPUT,
                  config.routingPartitions())), ROUTED_PASS_THROUGH_OUTPUT);
      out.println(routedPassThrough.describe());
      out.flush();
      long heapBefore = ModelFootprint.heapAfterFullCollection();
      long[] heapIdle = new long[1];
      Throughput dpstream = measure("dpstream", kafka, () -> {
        DpstreamService service = startDpstream(kafka, stateRoot.resolve("dpstream"));
        return () -> {
          Thread.sleep(rest.toMillis());
          heapIdle[0] = ModelFootprint.heapAfterFullCollection();
          service.close();
        };
      }, topics.releases().name(), topics.rejected().name());
      out.println(dpstream.describe());
      out.println(new ModelFootprint(models, heapBefore, heapIdle[0],
          ModelFootprint.bytesUnder(stateRoot.resolve("dpstream"))).describe());
      long changelogBytes;
      try (Admin admin = kafka.admin()) {
        changelogBytes = StateRecovery.bytesOnBroker(admin, StateRecovery.changelog(DPSTREAM_APPLICATION));
      }
      out.println(StateRecovery.measure(changelogBytes, samples,
          () -> startDpstream(kafka, stateRoot.resolve("dpstream-restored"))).describe());
      printRatio(out, "dpstream / pass-through", dpstream, passThrough, " (target >= 0.7)");
      printRatio(out, "routed pass-through / pass-through", routedPassThrough, passThrough,
          " (the ceiling of dpstream's ratio with routing kept)");
      printRatio(out, "dpstream / routed pass-through", dpstream, routedPassThrough, "");
      out.flush();
      return dpstream;
    }
  }

  private static void printRatio(PrintWriter out, String label, Throughput measured, Throughput baseline, String note) {
    out.printf(Locale.ROOT, "ratio %s: %.2f from start, %.2f first-to-last, %.2f by CPU per sample%s%n", label,
        measured.perSecond() / baseline.perSecond(), measured.steadyPerSecond() / baseline.steadyPerSecond(),
        baseline.cpuMicrosPerSample() / measured.cpuMicrosPerSample(), note);
  }

  /**
   * Starts a topology, times it until every sample's output is committed, and closes it. Then reads
   * the output to its end: exactly one output per sample, or the run fails (none lost, none twice).
   */
  private Throughput measure(String name, EmbeddedKafka kafka, Supplier<AutoCloseable> start, String... outputTopics)
      throws Exception {
    try (CommittedOutputCounter counter = new CommittedOutputCounter(kafka.bootstrapServers(), partitions, outputTopics)) {
      long started = System.nanoTime();
      long cpuStarted = Throughput.processCpuNanos();
      Throughput throughput;
      try (AutoCloseable topology = start.get()) {
        counter.awaitCount(samples, STALL);
        long finished = System.nanoTime();
        throughput = new Throughput(name, samples, finished - started, finished - counter.firstSeenNanos(),
            Throughput.processCpuNanos() - cpuStarted);
      }
      // Closed: whatever it wrote is committed or aborted now, so the end of the output is final.
      counter.readToEnd(STALL);
      if (counter.count() != samples) {
        throw new IllegalStateException(name + " committed " + counter.count() + " outputs for " + samples
            + " samples: each sample must have exactly one");
      }
      for (String topic : outputTopics) {
        if (topic.equals(Topics.defaults().rejected().name()) && counter.count(topic) > 0) {
          throw new IllegalStateException(name + " rejected " + counter.count(topic) + " benchmark samples");
        }
      }
      return throughput;
    }
  }

  /** The topic holds exactly {@code expected} records (its writer is neither transactional nor compacted). */
  private static void requireRecords(EmbeddedKafka kafka, String topic, long expected) throws Exception {
    try (Admin admin = kafka.admin()) {
      Map<TopicPartition, OffsetSpec> ends = new HashMap<>();
      for (TopicPartitionInfo partition : admin.describeTopics(List.of(topic)).allTopicNames().get()
          .get(topic).partitions()) {
        ends.put(new TopicPartition(topic, partition.partition()), OffsetSpec.latest());
      }
      long records = 0;
      for (ListOffsetsResult.ListOffsetsResultInfo end : admin.listOffsets(ends).all().get().values()) {
        records += end.offset();
      }
      if (records != expected) {
        throw new IllegalStateException(topic + " holds " + records + " records, " + expected + " were sent");
      }
    }
  }

  private DpstreamService startDpstream(EmbeddedKafka kafka, Path stateDir) {
    List<ModelConfig> configs = BenchModels.of(models, dimension, samples);
    ServiceConfig config = new ServiceConfig(DPSTREAM_APPLICATION, TopicNames.defaults(), configs,
        streamsSettings(kafka, stateDir), 0)
        // Static membership, as docs/operations.md advises: the instance restarted after a kill -9 takes its tasks
        // back at once instead of waiting for the killed one's session to time out, so the restore is what is timed.
        .withInstanceId(DPSTREAM_APPLICATION + "-instance");
    if (liveModels != null) {
      config = config.withLiveModelsPerTask(liveModels);
    }
    return DpstreamService.start(config, noiseKey, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
  }

  /**
   * A baseline topology under its own application id, with the service's own settings (exactly-once v2, commit
   * interval), so that only the topology differs.
   */
  private AutoCloseable startBaseline(EmbeddedKafka kafka, String applicationId, Path stateDir,
      Function<ServiceConfig, Topology> topology) {
    ServiceConfig config = new ServiceConfig(applicationId, TopicNames.defaults(), List.of(),
        streamsSettings(kafka, stateDir), 0);
    KafkaStreams streams = new KafkaStreams(topology.apply(config), StreamsSettings.of(config));
    streams.start();
    return () -> streams.close(Duration.ofSeconds(30));
  }

  private Map<String, String> streamsSettings(EmbeddedKafka kafka, Path stateDir) {
    Map<String, String> settings = new HashMap<>(kafkaSettings);
    settings.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    settings.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    settings.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, Integer.toString(threads));
    return settings;
  }
}
