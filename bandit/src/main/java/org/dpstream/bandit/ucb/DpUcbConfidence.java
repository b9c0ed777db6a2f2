package org.dpstream.bandit.ucb;

/**
 * The regulariser shift and the confidence width of DP-UCB, reconstructed from Shariff and Sheffet,
 * "Differentially Private Contextual Linear Bandits", NeurIPS 2018 (arXiv:1810.00068). We reconstructed
 * these formulas from our knowledge of that paper, not from its text at hand; constants may differ
 * from the published ones, and the structure is what we rely on:
 *
 * <ul>
 *   <li>Algorithm 1 ("linear UCB with changing perturbations") uses V_t = G_t + H_t and u_t = sum r x +
 *       h_t, and needs, with probability 1 - alpha/2, rho_min I &lt;= H_t &lt;= rho_max I and ||h_t||_{H_t^-1}
 *       &lt;= gamma. With those, its confidence width (the analogue of Abbasi-Yadkori et al. 2011,
 *       Theorem 2, in their Proposition 4 / Theorem 5) is
 *       beta_t = R sqrt(2 ln(2/alpha) + d ln(rho_max/rho_min + t L^2/(d rho_min))) + S sqrt(rho_max) + gamma.
 *   <li>Section 4.2 (additive Gaussian noise through the tree mechanism): a release sums at most m =
 *       ceil(log2 T) + 1 node noises, so each Gram entry has noise N(0, m sigma^2) (symmetrised). With
 *       Upsilon = sqrt(m) sigma (4 sqrt(d) + 2 ln(2T/alpha)), the symmetric noise has operator norm at
 *       most Upsilon at every t (union bound over T rounds), so shifting by 2 Upsilon I gives
 *       rho_min = Upsilon and rho_max = 3 Upsilon; and gamma = sqrt(m) sigma (sqrt(d) + sqrt(2 ln(2T/alpha)))
 *       / sqrt(rho_min) bounds the reward-vector noise in the H^-1 norm.
 * </ul>
 *
 * We add LinUCB's ridge lambda to the shift (so rho_min = Upsilon + lambda, rho_max = 3 Upsilon + lambda),
 * which keeps the non-private limit well posed. The models are disjoint per arm (one theta per arm,
 * equivalently their single theta over block contexts); the log-determinant term keeps the round t, not
 * the arm's pull count: the pull counts are private and are not released, while t is public.
 */
final class DpUcbConfidence {

  private final double noiseOperatorBound;
  private final double shift;
  private final double rhoMin;
  private final double rhoMax;
  private final double rewardNoiseTerm;
  private final DpUcbSpec spec;

  /**
   * @param nodeSigma the standard deviation of each coordinate of each tree node's noise
   * @param nodesPerRelease m, the most nodes a release sums
   */
  DpUcbConfidence(DpUcbSpec spec, double nodeSigma, int nodesPerRelease) {
    this.spec = spec;
    double releaseSigma = Math.sqrt(nodesPerRelease) * nodeSigma;
    double logUnion = Math.log(2.0 * spec.horizon() / spec.failureProbability());
    int d = spec.dimension();
    this.noiseOperatorBound = releaseSigma * (4 * Math.sqrt(d) + 2 * logUnion);
    this.shift = 2 * noiseOperatorBound + spec.ridge();
    this.rhoMin = noiseOperatorBound + spec.ridge();
    this.rhoMax = 3 * noiseOperatorBound + spec.ridge();
    this.rewardNoiseTerm = releaseSigma * (Math.sqrt(d) + Math.sqrt(2 * logUnion)) / Math.sqrt(rhoMin);
  }

  /** Upsilon: the high-probability bound on the operator norm of the Gram noise. */
  double noiseOperatorBound() {
    return noiseOperatorBound;
  }

  /** 2 Upsilon + lambda: added to the diagonal of the released Gram matrix. */
  double shift() {
    return shift;
  }

  double rhoMin() {
    return rhoMin;
  }

  /** beta_t after {@code rounds} rounds (every arm's Gram matrix holds at most that many contexts). */
  double width(long rounds) {
    int d = spec.dimension();
    double l2 = spec.contextL2Bound() * spec.contextL2Bound();
    double logDeterminant = d * Math.log(rhoMax / rhoMin + rounds * l2 / (d * rhoMin));
    double selfNormalised = spec.rewardNoiseScale()
        * Math.sqrt(2 * Math.log(2 / spec.failureProbability()) + logDeterminant);
    return selfNormalised + spec.parameterL2Bound() * Math.sqrt(rhoMax) + rewardNoiseTerm;
  }
}
