/**
 * Privacy accounting: budgets, zCDP conversions, noise calibrations that know their privacy map, and the
 * per-model ledger that reserves before it releases (ARCHITECTURE.md section 4, invariants 3 and 7).
 *
 * <p>Rounding rule for the whole package: every quantity that bounds a privacy loss (spent epsilon, delta,
 * rho, a noise scale) is rounded so that the rounding can only make the guarantee stronger: spent budgets
 * and noise scales up, the calibration target rho down. Calibrations then check their own privacy map at
 * the horizon, with the same code the ledger will see, so that "spent at the horizon &lt;= budget" holds for
 * the doubles actually computed, not only for the real numbers of the proof.
 *
 * <p>Paper references ("the paper") are to Han, Liang, Liang, Wang, Yao, Zhang, <i>On Private Online Convex
 * Optimization: Optimal Algorithms in lp-Geometry and High Dimensional Contextual Bandits</i>.
 */
package org.dpstream.core.privacy.accounting;
