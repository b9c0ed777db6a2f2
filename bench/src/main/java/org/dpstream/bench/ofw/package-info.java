/**
 * The {@code ofw} experiment of {@code dpstream-bench.jar}: section 5 of Han et al. (private online
 * Frank-Wolfe) reproduced at the stated privacy level. Data ({@link org.dpstream.bench.ofw.RegressionDataset}),
 * metric ({@link org.dpstream.bench.ofw.SubOpt}), runs ({@link org.dpstream.bench.ofw.ExperimentRunner}) and
 * outputs ({@link org.dpstream.bench.ofw.ResultsCsv}, {@link org.dpstream.bench.ofw.SubOptPlot},
 * {@link org.dpstream.bench.ofw.SummaryTable}) are separate classes with one job each; the picocli entry
 * point is {@link org.dpstream.bench.ofw.OfwExperimentCommand}.
 */
package org.dpstream.bench.ofw;
