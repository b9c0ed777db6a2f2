package org.dpstream.core.privacy.audit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

/**
 * The auditor's arithmetic and edge cases on mechanisms whose answer is known exactly. Seeds are fixed;
 * where a test relies on the audit's guarantee, a fresh seed would fail it with probability <= ALPHA.
 */
class PrivacyAuditorTest {

  private static final double ALPHA = 1e-3;
  private static final int RUNS_PER_INPUT = 1000;

  private static UniformRandomProvider seeded(long seed) {
    return RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
  }

  /**
   * A mechanism without noise is infinitely unprivate, and the bound is limited only by the runs: all
   * n held-out runs on D' and none on D hit S, so eps_lb = ln(a^(1/n) / (1 - a^(1/n))) with a = ALPHA
   * / 2 (see ClopperPearsonTest). Deterministic whatever the seed.
   */
  @Test
  void noiselessMechanismIsBoundedOnlyByTheNumberOfRuns() {
    AuditResult result = PrivacyAuditor.of(ALPHA, 0)
        .audit((neighbour, rng) -> neighbour ? 1 : 0, RUNS_PER_INPUT, seeded(1));

    int heldOut = RUNS_PER_INPUT - 250;
    double allHitsLower = Math.pow(ALPHA / 2, 1.0 / heldOut);
    assertEquals(Math.log(allHitsLower / (1 - allHitsLower)), result.epsilonLowerBound(), 1e-9);
    assertEquals(250, result.selectionRunsPerInput());
    NeighbouringInput likelier = result.likelierInput();
    assertEquals(new EventFrequency(heldOut, heldOut), result.heldOutFrequency(likelier));
    assertEquals(new EventFrequency(0, heldOut), result.heldOutFrequency(likelier.other()));
  }

  /** Same output distribution on both inputs: eps = 0, so eps_lb > 0 has probability <= ALPHA. */
  @Test
  void indistinguishableInputsGiveZero() {
    AuditResult result = PrivacyAuditor.of(ALPHA, 0)
        .audit((neighbour, rng) -> rng.nextDouble(), 100_000, seeded(2));

    assertEquals(0, result.epsilonLowerBound());
    assertFalse(result.violates(0));
  }

  /**
   * With probability 1/100 the output reveals the input, otherwise it is constant: the mechanism is
   * (0, 0.01)-DP and not (eps, delta)-DP for any eps when delta < 0.01. The audit must see the
   * difference that delta makes (the pass at delta = 0.01 fails with probability <= ALPHA).
   */
  @Test
  void deltaAbsorbsRareCatastrophicReleases() {
    AuditedMechanism revealsWithProbabilityOnePercent =
        (neighbour, rng) -> rng.nextDouble() < 0.01 ? (neighbour ? 1 : -1) : 0;

    AuditResult atMatchingDelta = PrivacyAuditor.of(ALPHA, 0.01)
        .audit(revealsWithProbabilityOnePercent, 100_000, seeded(3));
    AuditResult atZeroDelta = PrivacyAuditor.of(ALPHA, 0)
        .audit(revealsWithProbabilityOnePercent, 100_000, seeded(3));

    assertEquals(0, atMatchingDelta.epsilonLowerBound());
    // About 750 of 75,000 held-out hits against none: ln(0.0092 / 1.0e-4) ~= 4.5.
    assertTrue(atZeroDelta.epsilonLowerBound() > 4, atZeroDelta::toString);
  }

  @Test
  void failedAssertionQuotesTheNumbers() {
    AuditResult result = PrivacyAuditor.of(ALPHA, 0)
        .audit((neighbour, rng) -> neighbour ? 1 : 0, RUNS_PER_INPUT, seeded(4));

    AssertionError error = assertThrows(AssertionError.class, () -> result.assertAtMost(1));
    String message = error.getMessage();
    assertTrue(message.contains("not (1.0, 0.0)-DP"), message);
    assertTrue(message.contains(String.format(java.util.Locale.ROOT, "eps >= %.4f",
        result.epsilonLowerBound())), message);
    assertTrue(message.contains("750/750") && message.contains("0/750"), message);
  }

  @Test
  void analysingCollectedRunsEqualsAuditingTheMechanism() {
    AuditedMechanism shifted = (neighbour, rng) -> rng.nextDouble() + (neighbour ? 0.5 : 0);
    UniformRandomProvider rng = seeded(5);
    double[] onOriginal = new double[RUNS_PER_INPUT];
    double[] onNeighbour = new double[RUNS_PER_INPUT];
    for (int run = 0; run < RUNS_PER_INPUT; run++) {
      onOriginal[run] = shifted.run(false, rng);
      onNeighbour[run] = shifted.run(true, rng);
    }
    double[] originalBefore = onOriginal.clone();
    PrivacyAuditor auditor = PrivacyAuditor.of(ALPHA, 0);

    AuditResult analysed = auditor.analyse(onOriginal, onNeighbour);
    AuditResult audited = auditor.audit(shifted, RUNS_PER_INPUT, seeded(5));

    assertEquals(audited.toString(), analysed.toString());
    assertArrayEquals(originalBefore, onOriginal);
  }

  @Test
  void projectionIsTheInnerProductWithACopiedDirection() {
    double[] direction = {1, -2, 0.5};
    AuditedMechanism projected =
        ((AuditedVectorMechanism) (neighbour, rng) -> new double[] {3, 1, neighbour ? 4 : 2})
            .projectedOnto(direction);
    direction[0] = 100;

    assertEquals(3 - 2 + 1, projected.run(false, seeded(6)));
    assertEquals(3 - 2 + 2, projected.run(true, seeded(6)));
  }

  @Test
  void rejectsBrokenInputs() {
    PrivacyAuditor auditor = PrivacyAuditor.of(ALPHA, 0);

    assertThrows(IllegalArgumentException.class,
        () -> auditor.analyse(new double[] {0, Double.NaN}, new double[] {0, 1}));
    assertThrows(IllegalArgumentException.class,
        () -> auditor.analyse(new double[] {0, 1, 2}, new double[] {0, 1}));
    assertThrows(IllegalArgumentException.class,
        () -> auditor.audit((neighbour, rng) -> 0, 1, seeded(7)));
    assertThrows(IllegalArgumentException.class, () -> PrivacyAuditor.of(0, 0));
    assertThrows(IllegalArgumentException.class, () -> PrivacyAuditor.of(ALPHA, 1));
  }
}
