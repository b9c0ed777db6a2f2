package org.dpstream.app.topology;

import org.dpstream.app.release.ModelReleases;
import org.dpstream.core.online.OnlineEstimator;
import org.dpstream.core.online.StepOutcome;
import org.dpstream.schemas.ModelRelease;

/** The ModelRelease record of a step: the private output, with its accounting. */
final class Releases {

  private Releases() {}

  static ModelRelease of(OnlineEstimator estimator, StepOutcome outcome) {
    return ModelReleases.of(estimator.spec().modelId(), outcome.step(), outcome.epoch(), estimator.parameters(),
        estimator.mechanism(), estimator.spec().p(), estimator.ledger());
  }
}
