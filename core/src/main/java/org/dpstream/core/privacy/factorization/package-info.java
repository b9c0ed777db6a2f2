/**
 * Continual prefix sums by matrix factorization: the square-root factorization of the prefix-sum matrix
 * (Fichtenberger, Henzinger and Upadhyay, "Constant Matters: Fine-grained Error Bound on Differentially Private Continual Observation", 2023), an alternative to the binary tree of {@code privacy.tree} with lower error at
 * the same zCDP guarantee.
 *
 * <p>The prefix sums of x_1..x_n are A x, with A the all-ones lower-triangular n x n matrix. Any factorization
 * A = B C gives the mechanism A x + B z = B (C x + z) with z ~ N(0, sigma^2 I): the Gaussian mechanism on
 * C x, post-processed by B. Here B = C = A^{1/2}, the lower-triangular Toeplitz matrix with
 * r_k = binom(2k, k) / 4^k on its k-th subdiagonal ({@link org.dpstream.core.privacy.factorization.PrefixSumSquareRoot}).
 * Its largest column norm grows like sqrt(ln(n) / pi), so the per-step error variance is O(log n) times
 * sigma^2 with a small constant, against the tree's O(log^2 n) (Fichtenberger, Henzinger and Upadhyay,
 * "Constant matters: fine-grained error bound on differentially private continual observation", ICML 2023;
 * Henzinger, Upadhyay and Upadhyay, "Almost tight error bounds on differentially private continual counting",
 * SODA 2023).
 *
 * <ul>
 *   <li>{@link org.dpstream.core.privacy.factorization.SqrtFactorizationCalibration}: the square root's
 *       structure under the one Gaussian zCDP map of {@code privacy.accounting.GaussianZcdpMap}.
 *   <li>{@link org.dpstream.core.privacy.factorization.SqrtFactorizationPrefixSum}: the d-dimensional
 *       continual release with O(d) state, keyed noise regenerated every step, and epochs past the horizon.
 *   <li>{@link org.dpstream.core.privacy.factorization.BltStrategy},
 *       {@link org.dpstream.core.privacy.factorization.BltOptimizer},
 *       {@link org.dpstream.core.privacy.factorization.BltPrefixSum}: a buffered linear Toeplitz strategy
 *       (Dvijotham et al. 2024) optimised for the horizon, and its release with O(d m) time and state per step.
 * </ul>
 *
 * <p>The rounding rule of {@code privacy.accounting} applies: every quantity bounding a privacy loss is
 * rounded to the safe side, and the calibration checks its own map at the horizon.
 */
package org.dpstream.core.privacy.factorization;
