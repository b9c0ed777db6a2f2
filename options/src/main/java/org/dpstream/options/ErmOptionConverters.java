package org.dpstream.options;

import org.dpstream.core.erm.training.ErmSettings;

/**
 * Enum-typed ERM options ({@code --loss}, {@code --reg}): picocli converts the text once, with the names and
 * aliases of {@link ErmSettings}, and reports a bad value as a usage error naming the option.
 */
public final class ErmOptionConverters {

  private ErmOptionConverters() {}

  /** {@code --loss}: logistic or squared (also square, least-squares). */
  public static final class LossConverter extends ParsingConverter<ErmSettings.Loss> {
    public LossConverter() {
      super(ErmSettings.Loss::parse);
    }
  }

  /** {@code --reg}: none, l2, l1 or elastic-net. */
  public static final class RegConverter extends ParsingConverter<ErmSettings.Reg> {
    public RegConverter() {
      super(ErmSettings.Reg::parse);
    }
  }
}
