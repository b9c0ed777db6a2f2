/**
 * What every bench experiment shares: the public experiment keys ({@link org.dpstream.bench.common.ExperimentKeys}),
 * number formats, mean and standard deviation and text tables (the progress bar, shared with train, is
 * {@code org.dpstream.options.ProgressBar}). Nothing here knows an
 * experiment; the experiments ({@code ofw}, {@code erm}, {@code bandit}, {@code dda}) depend on it, not on
 * each other.
 */
package org.dpstream.bench.common;
