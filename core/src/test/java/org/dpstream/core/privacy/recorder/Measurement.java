package org.dpstream.core.privacy.recorder;

/**
 * One comparison of a recorder: the measured change between neighbours of what a mechanism adds noise to, the
 * sensitivity its calibration declares for it, and the floating-point rounding of the measurement itself, bounded
 * by the recorder test that makes it.
 *
 * @param what what was measured, e.g. {@code "nodes released by step 5, l2"}
 */
public record Measurement(String what, double measured, double declared, double rounding) {

  public Measurement {
    if (!(declared >= 0) || !(rounding >= 0)) {
      throw new IllegalArgumentException("a declared sensitivity and a rounding bound are non-negative: " + this);
    }
  }

  /** Whether the measured change is within the declared sensitivity and the measurement's rounding. */
  public boolean holds() {
    return measured <= declared + rounding; // false for a NaN measurement: a NaN is a violation
  }

  @Override
  public String toString() {
    return what + ": measured " + measured + ", declared " + declared + " (+ rounding " + rounding + ")";
  }
}
