package org.dpstream.core.privacy.noise;

import org.apache.commons.rng.UniformRandomProvider;

/** Hands out the given words in order and counts them; fails if asked for more. */
final class ScriptedWords implements UniformRandomProvider {
  private final long[] words;
  int used;

  ScriptedWords(long... words) {
    this.words = words;
  }

  @Override
  public long nextLong() {
    return words[used++];
  }
}
