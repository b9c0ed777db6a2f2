/**
 * What every bench experiment shares: the public experiment keys ({@link org.dpstream.bench.common.ExperimentKeys}),
 * number formats, mean and standard deviation, text tables and the progress bar. Nothing here knows an
 * experiment; the experiments ({@code ofw}, {@code erm}, {@code bandit}, {@code dda}) depend on it, not on
 * each other.
 */
package org.dpstream.bench.common;
