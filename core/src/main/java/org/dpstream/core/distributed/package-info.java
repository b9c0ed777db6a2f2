/**
 * Differentially private distributed dual averaging with node subsampling (DP-DDA): C. Liu, K. H. Johansson,
 * Y. Shi, "Distributed Empirical Risk Minimization With Differential Privacy" (arXiv 2302.10520, 2023).
 *
 * <p>Pieces: {@link org.dpstream.core.distributed.DdaNode} (Algorithm 1 at one node, against a
 * {@link org.dpstream.core.distributed.GossipTransport}); {@link org.dpstream.core.distributed.DdaSimulation}
 * (Mode 1, all nodes in one JVM); {@link org.dpstream.core.distributed.GossipGraph},
 * {@link org.dpstream.core.distributed.GossipSampler} and {@link org.dpstream.core.distributed.SpectralGap}
 * (supergraphs, node subsampling with Metropolis edge gossip, beta of eq. (4));
 * {@link org.dpstream.core.distributed.DpDdaAccountant} (Theorem 1).
 *
 * <p><b>Readings followed.</b>
 * <ul>
 *   <li>Noise constant: Theorem 1's sigma^2 = 32 iota^2 L^2 T ln(2/delta_0)/(q^2 eps^2) does not make its own
 *       proof close; 160 does. Configurable, default 160.
 *   <li>Condition on T: Theorem 1 needs eps &lt;= 1 and T &gt;= 5 q^2 eps^2/(4 iota^2). The paper's experiments,
 *       and any "3 epochs" run with q in the hundreds or more, violate it. <b>The accountant then warns</b>
 *       and reports the guarantee its exact lemma chain yields, never the nominal target.
 *   <li>delta: with the paper's composition slack delta' = sqrt(sum eps'^2), delta is at least about
 *       eps/sqrt 5: Theorem 1's "some constant delta". The accountant reports it; a fixed slack trades it
 *       for a larger eps.
 *   <li>Inactive nodes freeze x (Algorithm 1) by default; the proof's re-solve is a flag.
 *   <li>d(x) = ||x||^2/2; l2 is (mu/2)||x||^2; hinge subgradient 0 at the kink, clipped to the declared L.
 *   <li>Secrecy of the schedule: node subsampling, edge activation, sample choice and noise all come from
 *       the keyed source, since amplification needs the subsample hidden; if the active set is observable
 *       (curious neighbours see who talks to them), only the 1/q amplification is justified
 *       ({@link org.dpstream.core.distributed.DpDdaAccountant.ActiveSetVisibility#OBSERVABLE}).
 * </ul>
 */
package org.dpstream.core.distributed;
