package org.dpstream.bench.ofw;

import org.dpstream.core.geometry.LpBall;
import org.dpstream.core.loss.DataBounds;
import org.dpstream.core.loss.SampleLoss;
import org.dpstream.core.privacy.accounting.PrivacyBudget;
import org.dpstream.core.privacy.random.KeyedNoiseSource;

/**
 * A batch baseline (NoisySFW, NoisySGD): trains once on all T samples and returns its final
 * parameters, (epsilon, delta)-DP w.r.t. one sample under its own accounting. Only {@link Baselines}
 * knows the implementations in dpstream-core, so the rest of the experiment compiles without them.
 */
interface BaselineTrainer {

  double[] train(double[][] features, double[] labels, SampleLoss loss, LpBall domain, PrivacyBudget budget,
      DataBounds bounds, KeyedNoiseSource source, String runId);

  /** The accountant the baseline uses, for the {@code accountant} column. */
  String accountant();

  /** Algorithm and noise, for the summary table. */
  String mechanism();
}
