package org.dpstream.service.release;

import java.util.ArrayList;
import java.util.List;
import org.dpstream.core.privacy.accounting.PrivacyLedger;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.service.config.PrivacyUnit;

/**
 * The one place a {@link ModelRelease} is built: the released parameters with the {@link PrivacyLedger} that
 * reserved their cost. Every release goes through here: the online models' steps ({@code topology}), the
 * bandits' arms ({@code bandit}, with their joint ledger), the DP-DDA nodes' models ({@code dda}) and {@code
 * train}'s batch models. The ledger is written as the model's accountant holds it, never assembled from loose
 * numbers, so a release cannot state a budget or spend that no ledger reserved.
 */
public final class ModelReleases {

  private ModelReleases() {}

  /**
   * The release of {@code parameters} at {@code step} of {@code epoch}.
   *
   * @param algorithm the mechanism's description (public parameters only)
   * @param p the lp geometry of the parameters
   * @param ledger what the release costs: budget, accountant, horizon, epoch and spend, already reserved
   */
  public static ModelRelease of(String modelId, long step, long epoch, double[] parameters, String algorithm,
      double p, PrivacyLedger ledger) {
    List<Double> values = new ArrayList<>(parameters.length);
    for (double v : parameters) {
      values.add(v);
    }
    return ModelRelease.newBuilder()
        .setModelId(modelId)
        .setStep(step)
        .setEpoch(epoch)
        .setParameters(values)
        .setAlgorithm(algorithm)
        .setP(p)
        .setLedger(ledger(ledger))
        .build();
  }

  /**
   * The release of a model in its noise generation: generation 0's as it is (its ledger carries no generation fields,
   * so its bytes are those of a build without generations); a later generation's ledger states the generation and
   * what the earlier ones spent, as read from their published ledgers (basic composition).
   */
  public static ModelRelease inGeneration(ModelRelease release, NoiseGeneration generation) {
    if (generation.generation() == 0) {
      return release;
    }
    org.dpstream.schemas.PrivacyLedger ledger = release.getLedger();
    ledger.setGeneration(generation.generation());
    ledger.setEarlierGenerationsEpsilonSpent(generation.earlierEpsilon());
    ledger.setEarlierGenerationsDeltaSpent(generation.earlierDelta());
    return release;
  }

  /**
   * The release of a model in its privacy unit: an event-level release as it is (its bytes are those of a build
   * without units); a person-level release names the unit and k in its ledger and its {@code algorithm}.
   */
  public static ModelRelease inUnit(ModelRelease release, PrivacyUnit unit) {
    if (!unit.byUser()) {
      return release;
    }
    release.setAlgorithm(release.getAlgorithm() + unit.algorithmSuffix());
    release.getLedger().setPrivacyUnit(unit.name());
    release.getLedger().setMaxContributions(unit.maxContributions());
    return release;
  }

  /** The wire form of a ledger. */
  public static org.dpstream.schemas.PrivacyLedger ledger(PrivacyLedger ledger) {
    return org.dpstream.schemas.PrivacyLedger.newBuilder()
        .setEpsilon(ledger.budget().epsilon())
        .setDelta(ledger.budget().delta())
        .setAccountant(ledger.accountant())
        .setHorizon(ledger.horizon())
        .setEpoch(ledger.epoch())
        .setEpsilonSpent(ledger.spentEpsilon())
        .setDeltaSpent(ledger.spentDelta())
        .build();
  }
}
