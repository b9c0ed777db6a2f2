package org.dpstream.service.it;

import java.util.Arrays;
import java.util.List;
import org.dpstream.core.online.OnlineEstimator;
import org.dpstream.core.online.StepOutcome;
import org.dpstream.schemas.ModelRelease;

/**
 * Everything a release publishes, in a form whose equals is bit-exact: parameters and budgets as the
 * raw bits of their doubles, so a difference in the last bit (or -0.0 against 0.0) is a mismatch.
 */
record ReleaseFacts(
    String modelId,
    long step,
    long epoch,
    List<Long> parameterBits,
    String algorithm,
    long pBits,
    long epsilonBits,
    long deltaBits,
    String accountant,
    long horizon,
    long ledgerEpoch,
    long epsilonSpentBits,
    long deltaSpentBits) {

  /** What the service published. */
  static ReleaseFacts of(ModelRelease release) {
    var ledger = release.getLedger();
    return new ReleaseFacts(release.getModelId(), release.getStep(), release.getEpoch(),
        release.getParameters().stream().map(Double::doubleToRawLongBits).toList(),
        release.getAlgorithm(), bits(release.getP()),
        bits(ledger.getEpsilon()), bits(ledger.getDelta()), ledger.getAccountant(), ledger.getHorizon(),
        ledger.getEpoch(), bits(ledger.getEpsilonSpent()), bits(ledger.getDeltaSpent()));
  }

  /** What the estimator, run directly in core, holds after the step that produced {@code outcome}. */
  static ReleaseFacts of(OnlineEstimator estimator, StepOutcome outcome) {
    var ledger = estimator.ledger();
    return new ReleaseFacts(estimator.spec().modelId(), outcome.step(), outcome.epoch(),
        Arrays.stream(estimator.parameters()).mapToObj(Double::doubleToRawLongBits).toList(),
        estimator.mechanism(), bits(estimator.spec().p()),
        bits(ledger.budget().epsilon()), bits(ledger.budget().delta()), ledger.accountant(), ledger.horizon(),
        ledger.epoch(), bits(ledger.spentEpsilon()), bits(ledger.spentDelta()));
  }

  private static long bits(double value) {
    return Double.doubleToRawLongBits(value);
  }
}
