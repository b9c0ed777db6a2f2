/**
 * Training as a user asks for it, in plain values: {@link org.dpstream.core.erm.training.ErmSettings} (the
 * command line's settings), {@link org.dpstream.core.erm.training.TrainDefaults} (what users get on their
 * file), {@link org.dpstream.core.erm.training.ErmTrainer} (settings to a run of the core ERM algorithms, in
 * the data's original units) and held-out {@link org.dpstream.core.erm.training.Evaluation}. Shared by
 * {@code dpstream train} and the bench's erm experiments, so that the bench reports what users get.
 */
package org.dpstream.core.erm.training;
