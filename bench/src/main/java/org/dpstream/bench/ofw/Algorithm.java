package org.dpstream.bench.ofw;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The algorithms the {@code ofw} experiment compares, by their command-line names. */
public enum Algorithm {
  /** DP-TOFW (p &gt; 1) or DP-POFW (p = 1) from dpstream-core, one pass over the stream. */
  OFW("ofw", true),
  /** NoisySFW (Bassily et al. 2021b, Alg. 3), a batch baseline for p = 1.5 in the paper. */
  NOISYSFW("noisysfw", false),
  /** NoisySGD (Bassily et al. 2020, Alg. 2), a batch baseline for p = infinity in the paper. */
  NOISYSGD("noisysgd", false);

  private final String cliName;
  private final boolean online;

  Algorithm(String cliName, boolean online) {
    this.cliName = cliName;
    this.online = online;
  }

  /** The name used on the command line and in the outputs. */
  public String cliName() {
    return cliName;
  }

  /** Whether it releases parameters after every sample (so SubOpt can be traced against t). */
  public boolean online() {
    return online;
  }

  /** @throws IllegalArgumentException naming the valid choices if {@code name} is none of them */
  public static Algorithm parse(String name) {
    String wanted = name.strip().toLowerCase(Locale.ROOT);
    for (Algorithm algorithm : values()) {
      if (algorithm.cliName.equals(wanted)) {
        return algorithm;
      }
    }
    throw new IllegalArgumentException("unknown algorithm '" + name + "'; expected one of " + choices());
  }

  static String choices() {
    return Arrays.stream(values()).map(Algorithm::cliName).collect(Collectors.joining(", "));
  }
}
