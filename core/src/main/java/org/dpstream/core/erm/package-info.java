/**
 * Private empirical risk minimisation with a composite objective F(w) = (1/n) sum_i l(x_i' w, y_i) + psi(w)
 * ({@link org.dpstream.core.erm.CompositeObjective}: squared or logistic GLM loss, separable {@link
 * org.dpstream.core.erm.Regularizer} none / l2 / l1 / elastic net).
 *
 * <p>Algorithms ({@link org.dpstream.core.erm.ErmAlgorithm}, by name through {@link
 * org.dpstream.core.erm.ErmAlgorithms}):
 * <ul>
 *   <li>{@link org.dpstream.core.erm.DpCd}: DP-CD, Mangold, Bellet, Salmon and Tommasi (ICML 2022);
 *   <li>{@link org.dpstream.core.erm.DpSkgd}: DP-SkGD-BS, Maranjyan, Sadiev and Richtárik (arXiv 2412.17054);
 *   <li>{@link org.dpstream.core.erm.DpSgd}: the DP-SGD baseline with Poisson subsampling and an RDP
 *       accountant ({@link org.dpstream.core.erm.privacy.SubsampledGaussianRdp}).
 * </ul>
 * plus the non-private reference {@link org.dpstream.core.erm.NonPrivateSolver} for F*.
 *
 * <p><b>Public constants.</b> Step sizes, clipping thresholds, Lipschitz constants and importance
 * probabilities derive from the caller's declared {@link org.dpstream.core.erm.FeatureBounds} and the loss,
 * never from the private data; see FeatureBounds and CompositeObjective for the formulas. Randomness comes
 * from {@link org.dpstream.core.privacy.random.KeyedNoiseSource} only.
 *
 * <p>Usage:
 * <pre>{@code
 * ErmDataset data = ErmDataset.of(x, y, FeatureBounds.uniform(d, 1.0));
 * CompositeObjective objective = CompositeObjective.of(GlmLoss.squared(), Regularizer.l1(0.1));
 * ErmProblem problem = ErmProblem.of(data, objective, new PrivacyBudget(1.0, 1e-8), 30,
 *     ErmOptions.defaults().withClipNorm(1.0));
 * ErmRun run = ErmAlgorithms.byName("dpcd-smooth").train(problem, source, "run-1", PassListener.NONE);
 * }</pre>
 */
package org.dpstream.core.erm;
