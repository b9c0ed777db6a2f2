/**
 * Following {@code dp.releases}: {@link org.dpstream.service.decide.follower.ReleaseFollower} reads the
 * committed releases, assembles each bandit's arms into one released step and publishes the newest
 * complete one to {@link org.dpstream.service.decide.follower.ReleasedBandits}, from which the
 * deciders decide.
 */
package org.dpstream.service.decide.follower;
