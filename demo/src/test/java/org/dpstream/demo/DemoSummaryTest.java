package org.dpstream.demo;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The summary states a person-level model's guarantee per person and what its bound rejected. */
class DemoSummaryTest {

  private static String print(List<DemoSummary.Row> rows) {
    StringWriter text = new StringWriter();
    DemoSummary.print(new PrintWriter(text), rows, Map.of(), 2.0, Path.of("plot.png"));
    return text.toString();
  }

  private static DemoSummary.Row row(DemoModel model, Map<String, Long> rejected) {
    return new DemoSummary.Row(model, "dp-tofw", 100, 0.01, 0.02, 0.9, 1, 100, 137, rejected);
  }

  @Test
  void aPersonLevelModelsGuaranteeIsPerPersonWithItsRejectionsOverTheBound() {
    String summary = print(List.of(row(new DemoModel("lr-p1.5", "1.5", 5), Map.of()),
        row(new DemoModel("lr-user", "1.5", 5, 5), Map.of("CONTRIBUTION_LIMIT", 37L, "UNDECODABLE", 1L))));
    assertTrue(summary.contains("Per person (privacyUnit: {by: user}):\n"
        + "  lr-user   (1, 1e-5)-DP per person, at most 5 samples each; 37 samples over the bound rejected\n"),
        summary);
    assertFalse(summary.contains("lr-p1.5   (1"), summary);
  }

  @Test
  void withoutAPersonLevelModelTheSummaryHasNoPerPersonBlock() {
    assertFalse(print(List.of(row(new DemoModel("lr-p1", "1", 10), Map.of()))).contains("Per person"));
  }
}
