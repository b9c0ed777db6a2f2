package org.dpstream.core.erm.privacy;

/**
 * Conversions of (alpha, R)-Renyi DP to (epsilon, delta)-DP, each valid at every order alpha &gt; 1; an
 * accountant takes the minimum over the orders it evaluates.
 */
public enum RdpConversion {

  /** Mironov 2017, Proposition 3: epsilon = R + ln(1/delta) / (alpha - 1). */
  CLASSIC("mironov17") {
    @Override
    public double epsilon(double rdp, double order, double delta) {
      return rdp + -Math.log(delta) / (order - 1);
    }
  },

  /**
   * Balle, Barthe, Gaboardi, Hsu and Sato 2020, Theorem 21 (also Canonne, Kamath and Steinke 2020,
   * Proposition 12 in its RDP form): epsilon = R + ln((alpha - 1)/alpha) - (ln delta + ln alpha) / (alpha - 1).
   * Never larger than {@link #CLASSIC}.
   */
  IMPROVED("bbghs20") {
    @Override
    public double epsilon(double rdp, double order, double delta) {
      return rdp + Math.log1p(-1 / order) - (Math.log(delta) + Math.log(order)) / (order - 1);
    }
  };

  private final String citation;

  RdpConversion(String citation) {
    this.citation = citation;
  }

  /** Short citation tag used in run descriptions. */
  public String citation() {
    return citation;
  }

  /**
   * epsilon of an (order, rdp)-RDP mechanism at this delta, not yet rounded.
   *
   * @param delta in (0, 1)
   */
  public abstract double epsilon(double rdp, double order, double delta);
}
