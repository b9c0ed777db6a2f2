package org.dpstream.service.decide;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.dpstream.bandit.Decision;
import org.dpstream.bandit.release.DecisionRule;
import org.dpstream.bandit.release.ReleasedBandit;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseStream;
import org.dpstream.service.bandit.BanditRejection;
import org.dpstream.service.bandit.Caller;
import org.dpstream.service.config.BanditRegistry;
import org.dpstream.service.decide.follower.ReleasedBandits;

/**
 * Decides a request from the latest released parameters of its bandit: a pure function of (the
 * release and its step, the context, the request id, the request's keyed noise). It holds nothing but
 * what {@link ReleasedBandits} was given from dp.releases, so it never sees unreleased state. Thread-safe.
 */
public final class Decider {

  /**
   * The noise of request r of bandit b in the default scope is the stream (purpose {@value #NOISE_PURPOSE}, id b NUL
   * r) of this scope, as before callers existed; that of caller c's request r is the stream (purpose
   * {@value #CALLER_NOISE_PURPOSE}, id c NUL b NUL r). Neither a caller nor a bandit id holds NUL, so no two
   * requests share a stream.
   */
  static final String NOISE_SCOPE = "decider";
  static final String NOISE_PURPOSE = "decision";
  static final String CALLER_NOISE_PURPOSE = "caller-decision";

  private final Map<String, BanditRegistry.Entry> bandits = new HashMap<>();
  private final Map<String, DecisionRule> rules = new HashMap<>();
  private final ReleasedBandits released;
  private final KeyedNoiseSource noise;

  public Decider(BanditRegistry registry, ReleasedBandits released, KeyedNoiseSource noise) {
    for (BanditRegistry.Entry entry : registry.all()) {
      bandits.put(entry.spec().banditId(), entry);
      rules.put(entry.spec().banditId(), DecisionRules.of(entry));
    }
    this.released = released;
    this.noise = noise.scoped(NOISE_SCOPE);
  }

  /** Why a request cannot be decided: the code (a {@link BanditRejection} or decoder code) and a message. */
  public static final class Refused extends Exception {
    private final String code;

    public Refused(String code, String message) {
      super(message, null, false, false);
      this.code = code;
    }

    public String code() {
      return code;
    }
  }

  public Optional<BanditRegistry.Entry> bandit(String banditId) {
    return Optional.ofNullable(banditId == null ? null : bandits.get(banditId));
  }

  /** The decision for one request of the default scope ({@link Caller#DEFAULT}). */
  public Decision decide(String banditId, String requestId, List<Double> context) throws Refused {
    return decide(banditId, Caller.DEFAULT, requestId, context);
  }

  /**
   * The decision for one request of {@code caller}.
   *
   * @throws Refused for an unknown bandit, an empty request id, a context of the wrong size or with a
   *     non-finite value
   */
  public Decision decide(String banditId, Caller caller, String requestId, List<Double> context) throws Refused {
    BanditRegistry.Entry entry = bandit(banditId).orElseThrow(
        () -> new Refused(BanditRejection.UNKNOWN_BANDIT.name(), "no bandit '" + banditId + "' is configured"));
    if (requestId == null || requestId.isEmpty()) {
      throw new Refused(BanditRejection.MISSING_REQUEST_ID.name(), "a decision request needs a request id");
    }
    int dimension = entry.spec().dimension();
    if (context == null || context.size() != dimension) {
      throw new Refused(BanditRejection.WRONG_DIMENSION.name(), "bandit " + banditId + " has dimension " + dimension
          + ", the context " + (context == null ? "none" : context.size()));
    }
    double[] x = new double[dimension];
    for (int j = 0; j < dimension; j++) {
      Double v = context.get(j);
      if (v == null || !Double.isFinite(v)) {
        throw new Refused("NON_FINITE_NUMBER", "context[" + j + "] is not a finite number");
      }
      x[j] = v;
    }
    ReleasedBandit latest = released.latest(banditId).orElseThrow();
    Supplier<NoiseStream> requestNoise = caller.isDefault()
        ? () -> noise.forStream(NOISE_PURPOSE, banditId + '\u0000' + requestId)
        : () -> noise.forStream(CALLER_NOISE_PURPOSE, caller.name() + '\u0000' + banditId + '\u0000' + requestId);
    return rules.get(banditId).decide(latest, x, requestNoise);
  }
}
