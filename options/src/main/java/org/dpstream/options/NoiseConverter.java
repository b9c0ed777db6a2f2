package org.dpstream.options;

import org.dpstream.core.online.NoiseChoice;

/** Enum-typed {@code --noise} options of the online estimators: {@link NoiseChoice#parse}. */
public final class NoiseConverter extends ParsingConverter<NoiseChoice> {

  public NoiseConverter() {
    super(NoiseChoice::parse);
  }
}
