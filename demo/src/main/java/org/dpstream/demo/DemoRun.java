package org.dpstream.demo;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.dpstream.schemas.ModelRelease;

/**
 * One demo, start to end: bring up the {@link DemoCluster}, stream the synthetic samples, watch the
 * releases until every sample is accounted for, then print the summary and write the plot. Ctrl-C
 * stops the stream early and still shuts everything down in order.
 */
final class DemoRun {

  static final String PLOT_FILE = "test-risk.png";
  /** The first line on stdout, followed by the broker's host:port. */
  static final String BOOTSTRAP_LINE = "Kafka bootstrap: ";
  /** After the last sample is sent: how long without any new output before the demo calls the service stalled. */
  private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(30);
  /** How long Ctrl-C waits for the orderly shutdown before the JVM exits anyway. */
  private static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(45);

  /** Exit codes: success, some sample unaccounted for, interrupted by Ctrl-C (128 + SIGINT). */
  static final int OK = 0;
  static final int INCOMPLETE = 1;
  static final int INTERRUPTED = 130;

  private final DemoOptions options;
  private final List<DemoModel> models;
  private final int banditRequests;
  private final PrintWriter out;
  private final PrintWriter err;
  private final CountDownLatch stopRequested = new CountDownLatch(1);
  private final CountDownLatch finished = new CountDownLatch(1);

  DemoRun(DemoOptions options, List<DemoModel> models, int banditRequests, PrintWriter out, PrintWriter err) {
    this.options = options;
    this.models = List.copyOf(models);
    this.banditRequests = banditRequests;
    this.out = out;
    this.err = err;
  }

  int execute() throws IOException, InterruptedException {
    Files.createDirectories(options.outDirectory());
    Thread shutdownHook = new Thread(this::stopAndAwaitShutdown, "dpstream-demo-shutdown");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
    try {
      return streamAndSummarise();
    } finally {
      finished.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(shutdownHook);
      } catch (IllegalStateException shuttingDown) {
        // Ctrl-C: the hook is running and has just been released by finished.
      }
    }
  }

  private int streamAndSummarise() throws IOException, InterruptedException {
    List<ModelProgress> progressByModel = new ArrayList<>();
    List<SampleProducer.ModelStream> streams = new ArrayList<>();
    for (int i = 0; i < models.size(); i++) {
      DemoModel model = models.get(i);
      SyntheticRegression generator = new SyntheticRegression(model.exponent(), model.dimension(), options.seed() + i);
      progressByModel.add(new ModelProgress(model, generator.testSet(options.testSetSize())));
      streams.add(new SampleProducer.ModelStream(model.id(), generator, model.perPerson() ? new DemoPersons() : null));
    }
    StreamProgress progress = new StreamProgress(progressByModel);

    List<org.dpstream.service.config.BanditConfig> bandits =
        banditRequests > 0 ? List.of(DemoBandit.config(banditRequests)) : List.of();
    try (DemoCluster cluster = DemoCluster.start(models, bandits, options.samplesPerModel(), options.metricsPort(),
            options.outputFormat(), options.kafkaPort(), options.outDirectory(), err);
        OutputWatcher watcher = OutputWatcher.start(cluster.clientConfig(), cluster.topics(), progress);
        SampleProducer producer = new SampleProducer(cluster.clientConfig(), cluster.topics().samples().name());
        DemoBandit bandit = banditRequests > 0
            ? new DemoBandit(cluster.clientConfig(), cluster.topics(), banditRequests,
                banditRequests / (options.duration().toMillis() / 1000.0), options.seed() + 1000) : null) {
      // On stdout, apart from the progress on stderr, for anyone who wants to watch the topics (kcat -b ...).
      out.println(BOOTSTRAP_LINE + cluster.bootstrapServers());
      out.flush();
      if (bandit != null) {
        bandit.start();
        err.printf(Locale.ROOT, "Bandit %s: sending %,d decision requests from a simulated environment, spread"
            + " over %s%n", DemoBandit.ID, banditRequests, humanDuration(options.duration()));
      }
      err.printf(Locale.ROOT, "Streaming %,d samples to each of %d models (%s), at most %s%n",
          options.samplesPerModel(), models.size(), rate(), humanDuration(options.duration()));
      err.flush();
      long started = System.nanoTime();
      SampleProducer.Sent sent;
      boolean complete;
      try (ProgressDisplay display = ProgressDisplay.start(err, progress,
          options.samplesPerModel() * models.size(), options.duration().toNanos())) {
        sent = producer.run(streams, MalformedSamples.aimedAt(models), options.samplesPerModel(),
            options.samplesPerSecond(), started + options.duration().toNanos(), this::isStopRequested);
        complete = awaitAccountedFor(progress, sent);
        if (bandit != null) {
          complete &= bandit.awaitDecided(Math.max(started + options.duration().toNanos(),
              System.nanoTime() + DRAIN_TIMEOUT.toNanos()), this::isStopRequested);
        }
      }
      double seconds = (System.nanoTime() - started) / 1e9;
      if (!complete && !isStopRequested()) {
        err.printf("Warning: no new output for %s, and not every sample sent has a committed release or"
            + " rejection yet%n", humanDuration(DRAIN_TIMEOUT));
      }
      Path plot = options.outDirectory().resolve(PLOT_FILE);
      List<DemoSummary.Row> rows = summarise(progressByModel, sent, plot);
      DemoSummary.print(out, rows, progress.otherRejections(), seconds, plot);
      if (bandit != null) {
        bandit.summarise(out, options.outDirectory().resolve(DemoBandit.PLOT_FILE),
            (long) cluster.counterTotal("dpstream.bandit.rewards.held"));
      }
      if (options.keepRunning() && !isStopRequested()) {
        err.printf("Still running (--keep-running): broker at %s, metrics at http://localhost:%d/metrics."
            + " Ctrl-C to stop.%n", cluster.bootstrapServers(), cluster.metricsPort());
        err.flush();
        stopRequested.await();
      }
      if (isStopRequested()) {
        return INTERRUPTED;
      }
      return complete ? OK : INCOMPLETE;
    }
  }

  /**
   * Waits until every sample and bad record sent has come out. A slow machine is not a failure: the wait
   * ends early only if no new output comes for the drain timeout (a stalled service) or on Ctrl-C.
   */
  private boolean awaitAccountedFor(StreamProgress progress, SampleProducer.Sent sent) throws InterruptedException {
    long deadline = System.nanoTime() + DRAIN_TIMEOUT.toNanos();
    long seen = progress.totalSteps() + progress.totalRejected();
    while (!progress.accountsFor(sent)) {
      long now = progress.totalSteps() + progress.totalRejected();
      if (now > seen) {
        seen = now;
        deadline = System.nanoTime() + DRAIN_TIMEOUT.toNanos();
      }
      if (System.nanoTime() > deadline || stopRequested.await(100, TimeUnit.MILLISECONDS)) {
        return false;
      }
    }
    return true;
  }

  /** The summary's rows; writes the plot as it goes, since both need each model's final curve. */
  private List<DemoSummary.Row> summarise(List<ModelProgress> progressByModel, SampleProducer.Sent sent, Path plot)
      throws IOException {
    List<DemoSummary.Row> rows = new ArrayList<>();
    List<RiskPlot.Line> lines = new ArrayList<>();
    for (ModelProgress model : progressByModel) {
      List<RiskCurve.Point> curve = model.finalCurve();
      ModelRelease latest = model.latest();
      ModelProgress.Snapshot snapshot = model.snapshot();
      String mechanism = latest == null ? "(no release)" : latest.getAlgorithm();
      double riskAtZero = model.testSet().riskAtZero();
      double finalRisk = curve.isEmpty() ? Double.NaN : curve.get(curve.size() - 1).risk();
      rows.add(new DemoSummary.Row(model.model(), mechanism, snapshot.step(), finalRisk, riskAtZero,
          snapshot.epsilonSpent(), snapshot.epsilonBudget(), snapshot.releases(),
          sent.samplesPerModel().getOrDefault(model.model().id(), 0L), model.rejectedByReason()));
      lines.add(new RiskPlot.Line(model.model(), mechanism, curve, riskAtZero));
    }
    RiskPlot.write(plot, lines, options.testSetSize());
    return rows;
  }

  private String rate() {
    return options.samplesPerSecond() > 0
        ? String.format(Locale.ROOT, "%,.0f samples/s in total", options.samplesPerSecond())
        : "as fast as the service takes them";
  }

  private static String humanDuration(Duration duration) {
    return duration.toString().substring(2).toLowerCase(Locale.ROOT);
  }

  private boolean isStopRequested() {
    return stopRequested.getCount() == 0;
  }

  /** Ctrl-C: stop streaming (or keep-running), then let the main thread shut down in order. */
  private void stopAndAwaitShutdown() {
    stopRequested.countDown();
    try {
      finished.await(SHUTDOWN_GRACE.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
