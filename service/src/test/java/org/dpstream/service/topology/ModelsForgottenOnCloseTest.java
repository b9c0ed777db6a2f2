package org.dpstream.service.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.dpstream.core.online.StepOutcome;
import org.dpstream.core.privacy.accounting.PrivacyLedger;
import org.dpstream.service.metrics.ModelMetrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A closing task names to the metrics every model it ran, and no other, so that those models' series leave this
 * instance with the task (the instance that takes the task over reports them).
 */
class ModelsForgottenOnCloseTest {

  @TempDir Path stateDir;

  /** Metrics that keep what each close named. */
  private static final class ClosesRecorded implements ModelMetrics {
    final List<Set<String>> closes = new ArrayList<>();

    @Override
    public void stepped(String modelId, StepOutcome outcome, long nanos, PrivacyLedger ledger) {}

    @Override
    public void rejected(String modelId, String reason) {}

    @Override
    public void closed(Collection<String> modelIds) {
      closes.add(Set.copyOf(modelIds)); // the processor empties its collection after the call
    }
  }

  @Test
  void theTaskNamesTheModelsItLoadedAndNotTheOnesItRejectedBeforeLoading() {
    ClosesRecorded metrics = new ClosesRecorded();
    double[][] rows = ContinualReleaseTopologyTest.stream(6);
    try (TopologyFixture fixture = new TopologyFixture(stateDir, metrics)) {
      for (int i = 0; i < 3; i++) {
        fixture.samples.pipeInput(ContinualReleaseTopologyTest.key("linear"), ContinualReleaseTopologyTest.avro(rows[i]));
      }
      // Not configured: rejected by validation, never loaded by the learning task.
      fixture.samples.pipeInput(ContinualReleaseTopologyTest.key("unconfigured"), ContinualReleaseTopologyTest.avro(rows[3]));
      assertEquals(3, fixture.releases.readValuesToList().size());
      assertEquals(1, fixture.rejected.readValuesToList().size());
      assertEquals(List.of(), metrics.closes, "nothing closed while the task runs");
    }
    assertEquals(List.of(Set.of("linear")), metrics.closes);
  }
}
