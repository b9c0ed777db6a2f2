package org.dpstream.app.topology;

import java.util.ArrayList;
import java.util.List;
import org.dpstream.core.online.OnlineEstimator;
import org.dpstream.core.online.StepOutcome;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.PrivacyLedger;

/** The ModelRelease record of a step: the private output, with its accounting. */
final class Releases {

  private Releases() {}

  static ModelRelease of(OnlineEstimator estimator, StepOutcome outcome) {
    double[] theta = estimator.parameters();
    List<Double> parameters = new ArrayList<>(theta.length);
    for (double v : theta) {
      parameters.add(v);
    }
    org.dpstream.core.privacy.accounting.PrivacyLedger ledger = estimator.ledger();
    return ModelRelease.newBuilder()
        .setModelId(estimator.spec().modelId())
        .setStep(outcome.step())
        .setEpoch(outcome.epoch())
        .setParameters(parameters)
        .setAlgorithm(estimator.mechanism())
        .setP(estimator.spec().p())
        .setLedger(PrivacyLedger.newBuilder()
            .setEpsilon(ledger.budget().epsilon())
            .setDelta(ledger.budget().delta())
            .setAccountant(ledger.accountant())
            .setHorizon(ledger.horizon())
            .setEpoch(ledger.epoch())
            .setEpsilonSpent(ledger.spentEpsilon())
            .setDeltaSpent(ledger.spentDelta())
            .build())
        .build();
  }
}
