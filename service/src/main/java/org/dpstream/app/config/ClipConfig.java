package org.dpstream.app.config;

import java.util.Locale;
import org.dpstream.core.online.IncrementClipping;

/**
 * A model's {@code clip:} block: how DP-TOFW bounds one increment g_t.
 *
 * @param mode {@code worst-case} (the default: the paper's per-term bounds L and beta D) or {@code fixed}
 *     (g_t clipped as one vector to {@code norm} in the norm the noise is calibrated in)
 * @param norm C, required with {@code fixed}; public configuration, never chosen by looking at the stream
 */
public record ClipConfig(String mode, Double norm) {

  public static final ClipConfig WORST_CASE = new ClipConfig("worst-case", null);

  IncrementClipping toClipping() {
    String m = mode == null ? "worst-case" : mode.trim().toLowerCase(Locale.ROOT);
    return switch (m) {
      case "worst-case" -> {
        if (norm != null) {
          throw new IllegalArgumentException("clip.norm is only for clip.mode: fixed");
        }
        yield IncrementClipping.WORST_CASE;
      }
      case "fixed" -> {
        if (norm == null) {
          throw new IllegalArgumentException("clip.mode: fixed needs clip.norm (the threshold C)");
        }
        yield IncrementClipping.fixed(norm);
      }
      default -> throw new IllegalArgumentException("clip.mode must be worst-case or fixed, got " + mode);
    };
  }
}
