package org.dpstream.core.erm;

import java.util.List;
import java.util.Locale;

/**
 * The ERM algorithms by name, for the command line and the bench:
 *
 * <ul>
 *   <li>{@code dpcd-smooth}, {@code dpcd-uniform}: {@link DpCd} with the smooth / uniform clipping rule;
 *   <li>{@code dpskgd-importance}, {@code dpskgd-uniform}: {@link DpSkgd} with importance / uniform block
 *       sampling (block count b from {@link ErmOptions#blockCount});
 *   <li>{@code dpsgd}: {@link DpSgd};
 *   <li>{@code output-perturbation}, {@code objective-perturbation}: the baselines {@link OutputPerturbation}
 *       and {@link ObjectivePerturbation} of Chaudhuri, Monteleoni and Sarwate (2011), logistic loss with l2
 *       only.
 * </ul>
 */
public final class ErmAlgorithms {

  private static final List<String> NAMES =
      List.of("dpcd-smooth", "dpcd-uniform", "dpskgd-importance", "dpskgd-uniform", "dpsgd", "output-perturbation",
          "objective-perturbation");

  private ErmAlgorithms() {}

  /** The registered names, in the order above. */
  public static List<String> names() {
    return NAMES;
  }

  /**
   * The algorithm registered under {@code name} (case-insensitive).
   *
   * @throws IllegalArgumentException for an unknown name, listing the known ones
   */
  public static ErmAlgorithm byName(String name) {
    return switch (name.toLowerCase(Locale.ROOT)) {
      case "dpcd-smooth" -> new DpCd(DpCd.ClippingRule.SMOOTH);
      case "dpcd-uniform" -> new DpCd(DpCd.ClippingRule.UNIFORM);
      case "dpskgd-importance" -> new DpSkgd(DpSkgd.Sampling.IMPORTANCE);
      case "dpskgd-uniform" -> new DpSkgd(DpSkgd.Sampling.UNIFORM);
      case "dpsgd" -> new DpSgd();
      case "output-perturbation" -> new OutputPerturbation();
      case "objective-perturbation" -> new ObjectivePerturbation();
      default -> throw new IllegalArgumentException(
          "unknown ERM algorithm '" + name + "'; known: " + String.join(", ", NAMES));
    };
  }
}
