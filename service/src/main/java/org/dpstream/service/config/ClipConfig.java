package org.dpstream.service.config;

import java.util.Locale;
import org.dpstream.core.online.IncrementClipping;

/**
 * A model's {@code clip:} block: how DP-TOFW bounds one increment g_t.
 *
 * @param mode {@code adaptive} (the default for p &gt; 1: g_t clipped as one vector to a private online estimate
 *     of the {@code quantile} of its norm, docs/privacy-layer.md), {@code fixed} (g_t clipped as one vector to
 *     {@code norm} in the norm the noise is calibrated in) or {@code worst-case} (the paper's per-term bounds L
 *     and beta D; the default for p = 1 and for accountant: paper)
 * @param norm C, required with {@code fixed}; public configuration, never chosen by looking at the stream
 * @param quantile with {@code adaptive}: the target quantile of ||g_t||, in (0, 1); default 0.5
 * @param budgetShare with {@code adaptive}: the share of the model's zCDP budget spent on the quantile, in
 *     (0, 0.5]; default 0.05
 */
public record ClipConfig(String mode, Double norm, Double quantile, Double budgetShare) {

  public static final ClipConfig WORST_CASE = new ClipConfig("worst-case", null);

  public static final ClipConfig ADAPTIVE = new ClipConfig("adaptive", null);

  /** Worst-case or fixed clipping (or adaptive with the defaults). */
  public ClipConfig(String mode, Double norm) {
    this(mode, norm, null, null);
  }

  IncrementClipping toClipping() {
    String m = mode == null ? "worst-case" : mode.trim().toLowerCase(Locale.ROOT);
    if (!m.equals("adaptive") && (quantile != null || budgetShare != null)) {
      throw new IllegalArgumentException("clip.quantile and clip.budgetShare are only for clip.mode: adaptive");
    }
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
      case "adaptive" -> {
        if (norm != null) {
          throw new IllegalArgumentException("clip.norm is only for clip.mode: fixed (adaptive starts from the"
              + " worst-case bound and follows clip.quantile)");
        }
        yield IncrementClipping.adaptive(quantile == null ? IncrementClipping.DEFAULT_QUANTILE : quantile,
            budgetShare == null ? IncrementClipping.DEFAULT_QUANTILE_SHARE : budgetShare);
      }
      default -> throw new IllegalArgumentException("clip.mode must be adaptive, fixed or worst-case, got " + mode);
    };
  }
}
