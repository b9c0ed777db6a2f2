/**
 * DP-Linear: greedy per-arm ridge regression on privately released sufficient statistics (Shariff and
 * Sheffet 2018), {@link org.dpstream.bandit.linear.DpLinearPolicy}.
 *
 * <p><b>Joint DP.</b> Why DP-Linear's release of all arms' statistics is (epsilon, delta)-DP with every arm's mechanism
 * calibrated to the whole (epsilon, delta), for neighbouring inputs that differ in one user's (context,
 * reward) at one round t (docs/bandit-privacy.md, "DP-Linear").
 *
 * <p>Every arm's statistics stream gets one leaf every k rounds, whatever the routing, so all arms' trees
 * (or factorizations) have the same shape, and together they are one Gaussian mechanism on the stream of
 * concatenated leaves (L_1, ..., L_K) in R^{K m}, with the same isotropic noise. Round t lies in one
 * release j. The arm a_t receiving user t's contribution v = (svec(x x'), x r) (||x|| &lt;= c, |r| &lt;= B after
 * centring, scaling and clipping) is a function of the release j - 1 and of user t's own context; a neighbour
 * may route the neighbour's contribution v' to another arm a'_t. So the concatenated leaf j changes by
 *
 * <ul>
 *   <li>v - v' in one arm if a_t = a'_t: l2 norm at most Delta, where Delta^2 = max over u in [0, 1] of
 *       2 c^4 (1 - u^2) + 2 c^2 B^2 (1 + u) (the Gram parts are rank-one and positive semi-definite, so their inner
 *       product is non-negative; {@link org.dpstream.bandit.linear.DpLinearSpec#halfSensitivity()});
 *   <li>v in arm a_t and v' in arm a'_t otherwise: l2 norm sqrt(||v||^2 + ||v'||^2) &lt;= sqrt(2 c^4 + 2 c^2 B^2)
 *       &lt;= Delta.
 * </ul>
 *
 * Both are within S = Delta, the replace-one sensitivity each arm's mechanism is calibrated with (core's
 * {@code PrefixSumPlan.l2LeafSensitivity}). Every other leaf is the same function of earlier releases and
 * other users' data on both sides (their decisions are post-processing of releases), so the adaptive
 * Gaussian mechanism's zCDP bound applies to the concatenated stream exactly as to one arm's: the release
 * of all arms is what one arm's calibration says, {@code plan.calibration().spentAfter(step)}, converted to
 * (epsilon, delta). Other users' decisions are post-processing of it plus their own contexts, so the
 * bandit is (epsilon, delta)-joint DP. Unlike DP-HDB's Laplace arms, nothing is halved: the two affected
 * arms' changes add in l2 (squares), not in l1.
 *
 * <p>Requires Gaussian noise with the same sigma in every arm and an l2 sensitivity: the spec refuses
 * the paper's generalized Gaussian accountant.
 */
package org.dpstream.bandit.linear;
