package org.dpstream.service.release;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.dpstream.schemas.BanditStepRelease;
import org.dpstream.schemas.ModelRelease;

/**
 * A bandit's release step as one {@link BanditStepRelease} and back: the step's per-arm {@link ModelRelease} records
 * ({@code banditId/arm-i} for arm i, {@code banditId/NAME} for an extra) folded into one record that states their
 * shared step, epoch, algorithm, p and joint ledger once, and unfolded into exactly those records again. Folding
 * refuses records that do not share them, so the one record never stands for releases it cannot reproduce bit for
 * bit: it releases nothing the per-arm records did not.
 */
public final class BanditStepReleases {

  private static final String ARM_PREFIX = "arm-";

  private BanditStepReleases() {}

  /** The model id of arm {@code arm}'s release, as {@link org.dpstream.bandit.BanditSpec#armModelId} names it. */
  public static String armModelId(String banditId, int arm) {
    return banditId + "/" + ARM_PREFIX + arm;
  }

  /**
   * The step record of {@code round}: its first {@code arms} releases are arms 0 to K - 1 in order, the rest extras.
   *
   * @throws IllegalArgumentException if the releases are not one step of the bandit: an arm or extra of another
   *     model id, or a step, epoch, algorithm, p or ledger unlike arm 0's
   */
  public static BanditStepRelease of(String banditId, int arms, List<ModelRelease> round) {
    if (round.size() < arms || arms < 1) {
      throw new IllegalArgumentException("bandit " + banditId + ": a step of " + arms + " arms, got " + round.size()
          + " releases");
    }
    ModelRelease first = round.get(0);
    List<List<Double>> parameters = new ArrayList<>(arms);
    Map<String, List<Double>> extras = new LinkedHashMap<>();
    for (int i = 0; i < round.size(); i++) {
      ModelRelease release = round.get(i);
      requireSameStep(banditId, first, release);
      if (i < arms) {
        requireModelId(release, armModelId(banditId, i));
        parameters.add(release.getParameters());
      } else {
        String prefix = banditId + "/";
        String id = release.getModelId();
        if (!id.startsWith(prefix) || id.startsWith(prefix + ARM_PREFIX)) {
          throw new IllegalArgumentException("bandit " + banditId + ": " + id + " is not an extra of its step");
        }
        extras.put(id.substring(prefix.length()), release.getParameters());
      }
    }
    return BanditStepRelease.newBuilder()
        .setBanditId(banditId)
        .setStep(first.getStep())
        .setEpoch(first.getEpoch())
        .setAlgorithm(first.getAlgorithm())
        .setP(first.getP())
        .setArms(parameters)
        .setExtras(extras)
        .setLedger(first.getLedger())
        .build();
  }

  /** The per-arm releases {@code step} stands for: arms 0 to K - 1, then its extras, as {@link #of} took them. */
  public static List<ModelRelease> armReleases(BanditStepRelease step) {
    String banditId = step.getBanditId();
    List<ModelRelease> releases = new ArrayList<>(step.getArms().size() + step.getExtras().size());
    for (int arm = 0; arm < step.getArms().size(); arm++) {
      releases.add(release(step, armModelId(banditId, arm), step.getArms().get(arm)));
    }
    step.getExtras().forEach((name, values) -> releases.add(release(step, banditId + "/" + name, values)));
    return releases;
  }

  private static ModelRelease release(BanditStepRelease step, String modelId, List<Double> parameters) {
    return ModelRelease.newBuilder()
        .setModelId(modelId)
        .setStep(step.getStep())
        .setEpoch(step.getEpoch())
        .setParameters(new ArrayList<>(parameters))
        .setAlgorithm(step.getAlgorithm())
        .setP(step.getP())
        .setLedger(org.dpstream.schemas.PrivacyLedger.newBuilder(step.getLedger()).build())
        .build();
  }

  private static void requireSameStep(String banditId, ModelRelease first, ModelRelease release) {
    if (release.getStep() != first.getStep() || release.getEpoch() != first.getEpoch()
        || !release.getAlgorithm().equals(first.getAlgorithm())
        || Double.doubleToLongBits(release.getP()) != Double.doubleToLongBits(first.getP())
        || !Objects.equals(release.getLedger(), first.getLedger())) {
      throw new IllegalArgumentException("bandit " + banditId + ": " + release.getModelId()
          + " does not share the step, epoch, algorithm, p and ledger of " + first.getModelId());
    }
  }

  private static void requireModelId(ModelRelease release, String expected) {
    if (!release.getModelId().equals(expected)) {
      throw new IllegalArgumentException("expected the release of " + expected + ", got " + release.getModelId());
    }
  }
}
