package org.dpstream.core.online;

/** Input checks every estimator runs before a sample can touch its state. */
final class SampleChecks {

  private SampleChecks() {}

  static void require(OnlineModelSpec spec, double[] features, double label) {
    if (features.length != spec.dimension()) {
      throw new IllegalArgumentException(
          "model " + spec.modelId() + " has dimension " + spec.dimension() + ", the sample " + features.length);
    }
    for (int i = 0; i < features.length; i++) {
      if (!Double.isFinite(features[i])) {
        throw new IllegalArgumentException("feature " + i + " is not finite: " + features[i]);
      }
    }
    if (!Double.isFinite(label)) {
      throw new IllegalArgumentException("label is not finite: " + label);
    }
  }
}
