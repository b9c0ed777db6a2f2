/**
 * Offline private baselines that Han et al. (Section 5.3) compare DP-TOFW against, trained on a whole
 * {@link org.dpstream.core.online.baseline.BatchProblem} at once:
 *
 * <ul>
 *   <li>{@link org.dpstream.core.online.baseline.NoisySfw}: noisy stochastic Frank-Wolfe with a
 *       variance-reduced (recursive) gradient, Bassily, Guzmán and Nandi (COLT 2021), "Non-Euclidean
 *       Differentially Private Stochastic Convex Optimization", Algorithm 3, for 1 &lt; p &lt;= 2;
 *   <li>{@link org.dpstream.core.online.baseline.NoisySgd}: noisy projected SGD, Bassily, Feldman,
 *       Guzmán and Talwar (NeurIPS 2020), "Stability of Stochastic Gradient Descent on Nonsmooth
 *       Convex Losses", Algorithm 2, used by Han et al. for p = infinity.
 * </ul>
 *
 * <p><b>Provenance.</b> Neither source paper was available while this package was written. Each
 * algorithm is reconstructed from Han et al.'s description of it and from memory of the source; the
 * class Javadoc of each says which steps and constants are reconstructed and which reading was chosen.
 * Privacy calibrations follow the source's own formula and are never loosened; where the formula is
 * only proved for epsilon &lt;= 1 the budget is rejected above that.
 *
 * <p><b>Sensitivity.</b> As everywhere in dpstream, every per-sample contribution is clipped in the dual
 * norm q to the bound the loss guarantees over the domain for the declared {@link
 * org.dpstream.core.loss.DataBounds}, so the calibration holds for any input; for data within the
 * declared bounds nothing is clipped. Randomness (noise and, for NoisySGD, the sampled indices) comes
 * from a {@link org.dpstream.core.privacy.random.KeyedNoiseSource}, so a run is reproducible from its
 * key and run id and the sampling stays secret (privacy amplification by subsampling needs that).
 */
package org.dpstream.core.online.baseline;
