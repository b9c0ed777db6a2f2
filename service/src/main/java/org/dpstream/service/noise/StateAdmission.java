package org.dpstream.service.noise;

import java.util.OptionalInt;
import java.util.OptionalLong;
import org.dpstream.service.release.NoiseGeneration;
import org.dpstream.service.release.PublishedReleases;
import org.dpstream.service.routing.PlacedState;

/**
 * Whether a model's (or bandit's) stored state is resumed, a new one started, or the model stopped, from its
 * configured noise generation, its stored state and what dp.releases shows it published. A noise coordinate is
 * published once: a generation that published releases needs its state to go on (a state lost or behind the releases
 * is refused, since starting it again would draw published coordinates anew); a new generation, declared by the
 * operator, starts at step 1 in a noise scope of its own.
 */
public final class StateAdmission {

  private StateAdmission() {}

  /** What to do with the model: resume its stored state, or start a new one; in which generation. */
  public sealed interface Decision {
    NoiseGeneration generation();
  }

  /** Resume {@code state} (the stored bytes without their stamp). */
  public record Resume(NoiseGeneration generation, byte[] state) implements Decision {}

  /** Start a new state in {@code generation} (none is stored in it, and it has published nothing). */
  public record Start(NoiseGeneration generation) implements Decision {}

  /**
   * @param what names the model or bandit in messages, e.g. {@code "model m"}
   * @param releaseKey the key of its releases (a model's id; a bandit's first arm)
   * @param configured its configured {@code noiseGeneration}
   * @param stored its stored state and the generation it lives in, or null
   * @throws RefusedStateException ({@link StateRefusal#NOISE_GENERATION_MISMATCH}) if the configured generation is
   *     below one it published in or its state lives in; ({@link StateRefusal#STATE_LOST}) if it has no state in the
   *     configured generation but published in it
   */
  public static Decision decide(String what, String releaseKey, int configured, PlacedState.Opened stored,
      PublishedReleases published) {
    OptionalInt newest = published.newestGeneration(releaseKey);
    if (newest.isPresent() && newest.getAsInt() > configured) {
      throw new RefusedStateException(StateRefusal.NOISE_GENERATION_MISMATCH, what + " has published releases in noise"
          + " generation " + newest.getAsInt() + ", above its configured noiseGeneration " + configured
          + ": a generation's coordinates are never drawn again; configure noiseGeneration " + newest.getAsInt()
          + " (or a later one if that generation's state is lost)");
    }
    if (stored != null && stored.generation() > configured) {
      throw new RefusedStateException(StateRefusal.NOISE_GENERATION_MISMATCH, what + ": its stored state lives in"
          + " noise generation " + stored.generation() + ", above its configured noiseGeneration " + configured
          + "; configure noiseGeneration " + stored.generation() + " to resume it");
    }
    NoiseGeneration generation = published.generation(releaseKey, configured);
    if (stored != null && stored.generation() == configured) {
      return new Resume(generation, stored.state());
    }
    OptionalLong step = published.newestStep(releaseKey, configured);
    if (step.isPresent()) {
      throw new RefusedStateException(StateRefusal.STATE_LOST, what + " has no state in noise generation " + configured
          + ", which published its steps up to " + step.getAsLong() + " (the state was lost: an application reset,"
          + " a deleted changelog, a new applicationId); starting it again would draw published noise anew:"
          + " declare noiseGeneration " + (configured + 1) + " for it to start again under new coordinates");
    }
    return new Start(generation);
  }

  /**
   * @param publishedStep the step the resumed state's releases would carry now (a model's step, a bandit's round or
   *     statistics release)
   * @throws RefusedStateException ({@link StateRefusal#STATE_BEHIND_RELEASES}) if its generation published a later
   *     step (the state is older than the releases, e.g. a restored backup)
   */
  public static void requireNotBehind(String what, String releaseKey, NoiseGeneration generation, long publishedStep,
      PublishedReleases published) {
    OptionalLong newest = published.newestStep(releaseKey, generation.generation());
    if (newest.isPresent() && publishedStep < newest.getAsLong()) {
      throw new RefusedStateException(StateRefusal.STATE_BEHIND_RELEASES, what + " is at step " + publishedStep
          + ", behind step " + newest.getAsLong() + " that its noise generation " + generation.generation()
          + " published (a restored backup?): going on would draw published noise anew; declare noiseGeneration "
          + (generation.generation() + 1) + " for it to start again under new coordinates");
    }
  }
}
