package org.dpstream.service.decide.follower;

import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.dpstream.bandit.release.DecisionRule;
import org.dpstream.bandit.release.ReleasedBandit;

/**
 * Puts one bandit's per-arm releases back together into one {@link ReleasedBandit}: a decision reads
 * every arm at the same step. A step record (the default format) arrives whole ({@link #whole}); the per-arm
 * format is assembled as follows. The arms' releases have different keys and so may sit in different
 * partitions of dp.releases and arrive in any interleaving; the assembler keeps the recent steps of each
 * arm and offers the newest step that every arm has reached (with the extras the rule needs at that
 * step). Steps only move forward within a noise generation; a bandit started again in a later generation starts at
 * step 1 with a new assembler. Not thread-safe: one follower thread feeds it.
 */
final class ReleaseAssembler {

  /** Steps kept per arm while waiting for the other arms; an arm that lags further loses its oldest. */
  static final int RECENT_STEPS = 1024;

  private final String banditId;
  private final DecisionRule rule;
  private final int arms;
  private final int dimension;
  private final int generation;
  private final NavigableMap<Long, double[]>[] recent;
  private final Map<String, Extra> extras = new HashMap<>();
  private long assembledStep = -1;

  private record Extra(long step, double[][] vectors) {}

  ReleaseAssembler(String banditId, DecisionRule rule, int arms, int dimension) {
    this(banditId, rule, arms, dimension, 0);
  }

  /** The assembler of the bandit's releases in noise generation {@code generation}. */
  @SuppressWarnings("unchecked")
  ReleaseAssembler(String banditId, DecisionRule rule, int arms, int dimension, int generation) {
    this.generation = generation;
    this.banditId = banditId;
    this.rule = rule;
    this.arms = arms;
    this.dimension = dimension;
    this.recent = new NavigableMap[arms];
    for (int i = 0; i < arms; i++) {
      recent[i] = new TreeMap<>();
    }
  }

  /** The noise generation whose releases this assembles. */
  int generation() {
    return generation;
  }

  /** The same bandit's assembler for a later noise generation, before any of its releases. */
  ReleaseAssembler next(int laterGeneration) {
    return new ReleaseAssembler(banditId, rule, arms, dimension, laterGeneration);
  }

  /** The state before any release: step 0, every arm at its start (theta = 0), no extras. */
  ReleasedBandit initial() {
    return new ReleasedBandit(banditId, rule.algorithm(), 0, new double[arms][dimension], Map.of());
  }

  /**
   * Takes arm {@code arm}'s release at {@code step}.
   *
   * @return the newest complete release, if this one completed a step newer than the last; else null
   */
  ReleasedBandit arm(int arm, long step, double[] parameters) {
    if (arm < 0 || arm >= arms || parameters.length != dimension || step <= assembledStep) {
      return null;
    }
    NavigableMap<Long, double[]> steps = recent[arm];
    steps.put(step, parameters);
    if (steps.size() > RECENT_STEPS) {
      steps.pollFirstEntry();
    }
    return assemble();
  }

  /**
   * Takes a whole step (every arm's parameters, as one step record carries them): no other record is waited for,
   * unless the rule needs an extra at this step that has not been released yet.
   *
   * @return the step, if it is newer than the last and the extras it needs are known; else null
   */
  ReleasedBandit whole(long step, double[][] parameters) {
    if (parameters.length != arms || step <= assembledStep) {
      return null;
    }
    for (double[] arm : parameters) {
      if (arm.length != dimension) {
        return null;
      }
    }
    for (int i = 0; i < arms; i++) {
      recent[i].put(step, parameters[i]);
      if (recent[i].size() > RECENT_STEPS) {
        recent[i].pollFirstEntry();
      }
    }
    return assemble();
  }

  /** Takes a named extra (all arms' vectors, arm after arm) released at {@code step}. */
  ReleasedBandit extra(String name, long step, double[] concatenated) {
    if (concatenated.length != arms * dimension) {
      return null;
    }
    Extra known = extras.get(name);
    if (known != null && known.step() >= step) {
      return null;
    }
    double[][] vectors = new double[arms][];
    for (int i = 0; i < arms; i++) {
      vectors[i] = java.util.Arrays.copyOfRange(concatenated, i * dimension, (i + 1) * dimension);
    }
    extras.put(name, new Extra(step, vectors));
    return assemble();
  }

  private ReleasedBandit assemble() {
    // The newest step all arms have: the smallest of their newest steps, if every arm has it.
    long candidate = Long.MAX_VALUE;
    for (NavigableMap<Long, double[]> steps : recent) {
      if (steps.isEmpty()) {
        return null;
      }
      candidate = Math.min(candidate, steps.lastKey());
    }
    for (long step = candidate; step > assembledStep; ) {
      ReleasedBandit complete = completeAt(step);
      if (complete != null) {
        assembledStep = step;
        for (NavigableMap<Long, double[]> steps : recent) {
          steps.headMap(step, true).clear();
        }
        return complete;
      }
      Long lower = recent[0].lowerKey(step);
      if (lower == null) {
        return null;
      }
      step = lower;
    }
    return null;
  }

  private ReleasedBandit completeAt(long step) {
    double[][] parameters = new double[arms][];
    for (int i = 0; i < arms; i++) {
      parameters[i] = recent[i].get(step);
      if (parameters[i] == null) {
        return null;
      }
    }
    Map<String, double[][]> needed = new HashMap<>();
    for (String name : rule.extrasNeeded(step)) {
      Extra extra = extras.get(name);
      if (extra == null) {
        return null;
      }
      needed.put(name, extra.vectors());
    }
    return new ReleasedBandit(banditId, rule.algorithm(), step, parameters, needed);
  }
}
