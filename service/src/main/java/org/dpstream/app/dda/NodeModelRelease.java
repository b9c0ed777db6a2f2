package org.dpstream.app.dda;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.dpstream.core.distributed.DdaRunSpec;
import org.dpstream.core.distributed.DpDdaPrivacyReport;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.PrivacyLedger;

/**
 * A node's output x~_i = A_T^{-1} sum_t a_t x_i^(t) as a {@link ModelRelease}: model id run id/node-i,
 * step = rounds completed, p = 2 (Euclidean weights), and the ledger of the whole run, with the guarantee
 * the accountant obtains (not the target) as the spent budget. x~_i is post-processing of the node's
 * messages, which the accountant covers, so publishing it costs no further privacy.
 */
final class NodeModelRelease {

  private NodeModelRelease() {}

  static String modelId(String runId, int node) {
    return runId + "/node-" + node;
  }

  static ModelRelease of(DdaRunSpec spec, int node, long completedRounds, double[] averagedModel,
      double targetEpsilon, String accounting, DpDdaPrivacyReport report) {
    List<Double> parameters = new ArrayList<>(averagedModel.length);
    for (double w : averagedModel) {
      parameters.add(w);
    }
    return ModelRelease.newBuilder()
        .setModelId(modelId(spec.runId(), node))
        .setStep(completedRounds)
        .setEpoch(0)
        .setParameters(parameters)
        .setAlgorithm(String.format(Locale.ROOT, "DP-DDA(%s, sigma=%s, %s, %s)", spec.sampler(), spec.settings().sigma(),
            spec.settings().schedule(), spec.settings().prox()))
        .setP(2.0)
        .setLedger(PrivacyLedger.newBuilder()
            .setEpsilon(targetEpsilon)
            .setDelta(report.delta())
            .setAccountant(accounting)
            .setHorizon(spec.rounds())
            .setEpoch(0)
            .setEpsilonSpent(report.epsilon())
            .setDeltaSpent(report.delta())
            .build())
        .build();
  }
}
