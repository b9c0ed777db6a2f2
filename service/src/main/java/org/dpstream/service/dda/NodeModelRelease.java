package org.dpstream.service.dda;

import java.util.Locale;
import org.dpstream.core.distributed.DdaRunSpec;
import org.dpstream.core.privacy.accounting.PrivacyLedger;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.service.release.ModelReleases;

/**
 * A node's output x~_i = A_T^{-1} sum_t a_t x_i^(t) as a {@link ModelRelease}: model id run id/node-i,
 * step = rounds completed, p = 2 (Euclidean weights), and the ledger of the whole run, reserved before the
 * first message, with the guarantee the accountant obtains (not the target) as the spent budget. x~_i is post-processing of the node's
 * messages, which the accountant covers, so publishing it costs no further privacy.
 */
final class NodeModelRelease {

  private NodeModelRelease() {}

  static String modelId(String runId, int node) {
    return runId + "/node-" + node;
  }

  static ModelRelease of(DdaRunSpec spec, int node, long completedRounds, double[] averagedModel,
      PrivacyLedger ledger) {
    return ModelReleases.of(modelId(spec.runId(), node), completedRounds, 0, averagedModel,
        String.format(Locale.ROOT, "DP-DDA(%s, sigma=%s, %s, %s)", spec.sampler(), spec.settings().sigma(),
            spec.settings().schedule(), spec.settings().prox()), 2.0, ledger);
  }
}
