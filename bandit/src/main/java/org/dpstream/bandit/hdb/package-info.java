/**
 * DP-HDB (Han et al., Algorithm 3): a private high-dimensional GLM contextual bandit with one DP-POFW
 * estimator per arm, forced-sampling warm-up, pre-selection with h_sub, greedy choice, and the
 * synthetic update that makes every arm step at every round. Joint-DP calibration: {@link
 * org.dpstream.bandit.hdb.JointDpCalibration}; reasoning in {@code docs/bandit-privacy.md}.
 */
package org.dpstream.bandit.hdb;
