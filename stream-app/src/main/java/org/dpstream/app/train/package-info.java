/**
 * {@code dpstream train}: trains a private ERM model on a file (CSV, LibSVM) or on Fashion-MNIST with one
 * of the algorithms of {@code org.dpstream.core.erm}, reports its objective and held-out accuracy, writes
 * it as a {@link org.dpstream.schemas.ModelRelease} and optionally publishes it to {@code dp.releases}.
 * {@link org.dpstream.app.train.ErmTrainer} is the only class that calls the core ERM package.
 */
package org.dpstream.app.train;
