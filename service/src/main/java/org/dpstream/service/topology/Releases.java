package org.dpstream.service.topology;

import org.dpstream.core.online.OnlineEstimator;
import org.dpstream.core.online.StepOutcome;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.service.release.ModelReleases;

/** The ModelRelease record of a step: the private output, with its accounting. */
final class Releases {

  private Releases() {}

  static ModelRelease of(OnlineEstimator estimator, StepOutcome outcome) {
    return ModelReleases.of(estimator.spec().modelId(), outcome.step(), outcome.epoch(), estimator.parameters(),
        estimator.mechanism(), estimator.spec().p(), estimator.ledger());
  }
}
