package org.dpstream.core.privacy.accounting;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * Gaussian node noise for the binary tree mechanism, accounted with zCDP instead of the paper's basic
 * composition: {@link GaussianZcdpMap} with the tree's structure ({@link SensitivityStructure#tree}).
 *
 * <p>One leaf with l2 sensitivity S lies in at most h = ceil(log2 n) + 1 nodes, each with independent
 * N(0, sigma^2 I) noise, so the whole tree is h S^2 / (2 sigma^2)-zCDP and sigma = S sqrt(h / (2 rho)), rounded
 * up. By step t a leaf has been in at most k(t) = min(h, floor(log2 t) + 1) released nodes ({@link TreeHorizon}),
 * so rho(t) = k(t) S^2 / (2 sigma^2).
 *
 * <p>The variance is about h times smaller than eq. (3.2)'s, whose basic composition costs a factor h^2.
 * The noise is an ordinary isotropic Gaussian: the sensitivity must be measured (clipped) in l2.
 */
public final class GaussianTreeCalibration extends GaussianZcdpMap {

  /**
   * Calibrations made, by everything they are a function of. A calibration searches sigma with an (epsilon, delta)
   * conversion at every checkpoint of the tree, about a millisecond, and is immutable: thousands of models with the
   * same budget, horizon and sensitivity (one per customer, say) share one, where each would otherwise calibrate its
   * own at every start and at every epoch of adaptive clipping. Bounded; a calibration that leaves is made again.
   */
  private static final Cache<Key, GaussianTreeCalibration> CALIBRATED =
      Caffeine.newBuilder().maximumSize(1024).executor(Runnable::run).build();

  private record Key(ZcdpBudget budget, long horizon, double l2Sensitivity, int participations) {}

  private final TreeHorizon tree;

  private GaussianTreeCalibration(ZcdpBudget budget, TreeHorizon tree, double l2Sensitivity, int participations) {
    super("zcdp-" + budget.conversion().citation(), budget, l2Sensitivity,
        SensitivityStructure.tree(tree, participations));
    this.tree = tree;
  }

  /**
   * @param budget the rho of one epoch, and the ledger's (epsilon, delta)
   * @param horizon n, the leaves of one tree
   * @param l2Sensitivity S, the l2 norm bound of one leaf's contribution (as clipped)
   */
  public static GaussianTreeCalibration of(ZcdpBudget budget, long horizon, double l2Sensitivity) {
    return of(budget, horizon, l2Sensitivity, 1);
  }

  /**
   * The tree for a person with up to {@code participations} leaves: sigma calibrated to Phi_k, the worst set of k
   * leaves ({@link SensitivityStructure#tree(TreeHorizon, int)}); S stays one leaf's sensitivity.
   */
  public static GaussianTreeCalibration of(ZcdpBudget budget, long horizon, double l2Sensitivity,
      int participations) {
    Key key = new Key(budget, horizon, l2Sensitivity, participations);
    GaussianTreeCalibration made = CALIBRATED.getIfPresent(key);
    if (made != null) {
      return made;
    }
    made = new GaussianTreeCalibration(budget, new TreeHorizon(horizon), l2Sensitivity, participations);
    GaussianTreeCalibration raced = CALIBRATED.asMap().putIfAbsent(key, made);
    return raced != null ? raced : made;
  }

  /** Test hook: forgets every calibration made (core's tests start each class with empty caches). */
  static void clearForTests() {
    CALIBRATED.invalidateAll();
    CALIBRATED.cleanUp();
  }

  public TreeHorizon tree() {
    return tree;
  }

  /** sigma: the standard deviation of every coordinate of every node's noise (rounded up). */
  public double nodeSigma() {
    return sigma();
  }
}
