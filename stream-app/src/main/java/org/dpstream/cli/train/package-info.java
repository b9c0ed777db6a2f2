/**
 * {@code dpstream train}: trains a private ERM model on a file (CSV, LibSVM) or on Fashion-MNIST with one
 * of the algorithms of {@code org.dpstream.core.erm}, reports its objective and held-out accuracy, writes
 * it as a {@link org.dpstream.schemas.ModelRelease} and optionally publishes it to {@code dp.releases}.
 * The command line only; settings, training and evaluation are in core
 * ({@link org.dpstream.core.erm.training.ErmTrainer}), shared with the bench's erm experiments.
 */
package org.dpstream.cli.train;
