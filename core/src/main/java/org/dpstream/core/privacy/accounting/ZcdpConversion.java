package org.dpstream.core.privacy.accounting;

/** Which rho-zCDP to (epsilon, delta)-DP conversion an accountant uses; see {@link ZeroConcentratedDp}. */
public enum ZcdpConversion {

  /** Bun and Steinke 2016: epsilon = rho + 2 sqrt(rho ln(1/delta)). */
  SIMPLE("bs16") {
    @Override
    public double epsilon(double rho, double delta) {
      return ZeroConcentratedDp.epsilon(rho, delta);
    }

    @Override
    public double maxRho(double epsilon, double delta) {
      return ZeroConcentratedDp.maxRho(epsilon, delta);
    }
  },

  /** Canonne, Kamath and Steinke 2020: the infimum over Renyi orders; the default. */
  TIGHT("cks20") {
    @Override
    public double epsilon(double rho, double delta) {
      return ZeroConcentratedDp.epsilonTight(rho, delta);
    }

    @Override
    public double maxRho(double epsilon, double delta) {
      return ZeroConcentratedDp.maxRhoTight(epsilon, delta);
    }
  };

  private final String citation;

  ZcdpConversion(String citation) {
    this.citation = citation;
  }

  /** Short citation tag used in accountant names, e.g. {@code cks20}. */
  public String citation() {
    return citation;
  }

  /** epsilon of rho-zCDP at this delta, rounded up. */
  public abstract double epsilon(double rho, double delta);

  /** The largest rho whose {@link #epsilon} is at most epsilon, rounded down. */
  public abstract double maxRho(double epsilon, double delta);
}
