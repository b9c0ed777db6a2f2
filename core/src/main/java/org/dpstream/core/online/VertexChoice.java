package org.dpstream.core.online;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpstream.core.privacy.accounting.ExponentialMechanismCalibration;
import org.dpstream.core.privacy.accounting.PrivacyCalibration;
import org.dpstream.core.privacy.accounting.ReportNoisyMaxCalibration;
import org.dpstream.core.privacy.noise.IidVectorNoise;
import org.dpstream.core.privacy.noise.VectorNoise;

/**
 * How DP-POFW chooses its vertex privately: noise added to each vertex's score &lt;d_t, v&gt; before the
 * argmin, and the calibration that prices it. {@link AccountantChoice#PAPER} is Algorithm 2 as printed
 * (Laplace report-noisy-min, advanced composition); every other choice is the exponential mechanism
 * (Gumbel-max) accounted in zCDP, which spends the same budget on several times less noise.
 */
sealed interface VertexChoice {

  PrivacyCalibration calibration();

  /** Writes the noise of the 2d vertex scores at step k of the epoch (entry 2j: +r e_j, 2j + 1: -r e_j). */
  void perturbations(UniformRandomProvider bits, long k, double[] out);

  String describe();

  /**
   * The same choice with {@code unit} as the unit noise of the 2d scores (scaled by the calibration as the
   * production noise is): the seam through which tests swap in a {@link
   * org.dpstream.core.privacy.noise.ConstantVectorNoise} or a deliberately wrong noise.
   */
  VertexChoice withUnitNoise(VectorNoise unit);

  /** The choice for a spec (memoised: see {@link VertexChoiceMemo}). */
  static VertexChoice of(OnlineModelSpec spec) {
    return VertexChoiceMemo.of(spec);
  }

  /** Builds the choice for a spec; {@link VertexChoiceMemo} calls it once per distinct calibration. */
  static VertexChoice build(OnlineModelSpec spec) {
    double diameter = spec.domain().diameter();
    // The calibrations take beta and L; our clip bounds are L and beta D.
    // A person's k samples move every utility by at most k Delta_t (the triangle inequality over their
    // gradients in d_t), as k times larger L and beta would: so the choice is calibrated for those.
    int k = spec.participations();
    double smoothness = k == 1 ? spec.clipBounds().difference() / diameter
        : Math.nextUp(k * Math.nextUp(spec.clipBounds().difference() / diameter));
    double lipschitz = k == 1 ? spec.clipBounds().gradient() : Math.nextUp(k * spec.clipBounds().gradient());
    return spec.accountant() == AccountantChoice.PAPER
        ? new Laplace(ReportNoisyMaxCalibration.of(spec.budget(), spec.horizon(), diameter, smoothness, lipschitz),
            IidVectorNoise.laplace(2 * spec.dimension(), 1.0))
        : new Gumbel(ExponentialMechanismCalibration.of(spec.budget(), spec.horizon(), diameter, smoothness, lipschitz),
            IidVectorNoise.gumbel(2 * spec.dimension(), 1.0));
  }

  /** Algorithm 2, line 8: Lap(b_k) added to each score. */
  record Laplace(ReportNoisyMaxCalibration calibration, VectorNoise unit) implements VertexChoice {
    @Override
    public VertexChoice withUnitNoise(VectorNoise newUnit) {
      return new Laplace(calibration, newUnit);
    }

    @Override
    public void perturbations(UniformRandomProvider bits, long k, double[] out) {
      unit.sample(bits, out);
      double scale = calibration.laplaceScaleAt(k);
      for (int i = 0; i < out.length; i++) {
        out[i] *= scale;
      }
    }

    @Override
    public String describe() {
      return calibration.accountant() + "/laplace-report-noisy-min";
    }
  }

  /** argmin(&lt;d, v&gt; - G_v) = argmax(-&lt;d, v&gt; + G_v), G_v ~ Gumbel(beta_k): the exponential mechanism. */
  record Gumbel(ExponentialMechanismCalibration calibration, VectorNoise unit) implements VertexChoice {
    @Override
    public VertexChoice withUnitNoise(VectorNoise newUnit) {
      return new Gumbel(calibration, newUnit);
    }

    @Override
    public void perturbations(UniformRandomProvider bits, long k, double[] out) {
      unit.sample(bits, out);
      double scale = -calibration.gumbelScaleAt(k);
      for (int i = 0; i < out.length; i++) {
        out[i] *= scale;
      }
    }

    @Override
    public String describe() {
      return calibration.accountant() + "/gumbel-max";
    }
  }
}
