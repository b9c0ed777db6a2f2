/**
 * {@code dpstream-bench erm}: private ERM (DP-CD, DP-SkGD, DP-SGD) on the synthetic data of Mangold et al.
 * (2022) section 5 or on Fashion-MNIST; relative error against a non-private optimum, held-out accuracy,
 * a plot over passes. {@link org.dpstream.bench.erm.ErmCore} is the only class that calls
 * {@code org.dpstream.core.erm}.
 */
package org.dpstream.bench.erm;
