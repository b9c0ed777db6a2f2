package org.dpstream.core.distributed;

import java.util.Map;
import java.util.Set;
import org.dpstream.core.erm.ErmDataset;
import org.dpstream.core.privacy.noise.VectorNoise;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.KeyCheck;
import org.dpstream.core.privacy.random.NoiseStream;
import org.dpstream.core.state.NoiseLaw;

/**
 * One node of differentially private distributed dual averaging (Algorithm 1 of C. Liu, K. H. Johansson,
 * Y. Shi, "Distributed Empirical Risk Minimization With Differential Privacy", arXiv 2302.10520), holding
 * its q local samples. Written against {@link GossipTransport} only, so it does not know whether it runs
 * in-process or over a message bus.
 *
 * <p>Round t is two calls, made by every node, active or not, with the round's {@link GossipRound}:
 * <ol>
 *   <li>{@link #broadcast}: the node adds a_t x_i^(t) to its output sum. If active, it draws one local
 *       sample xi uniformly, computes the clipped hinge subgradient g at its current x_i^(t), adds
 *       nu ~ N(0, sigma^2 I) and sends msg_i = z_i^(t) + a_t (g + nu).
 *   <li>{@link #mix}: if active, z_i^(t+1) = w_ii msg_i + sum_{j in N_i^(t)} w_ij msg_j (eq. (5)) and
 *       x_i^(t+1) = argmin &lt;z, x&gt; + iota A_{t+1} h(x) + gamma_{t+1} d(x) (eq. (6)). If inactive, z and x
 *       are kept (or x re-solved, {@link DdaSettings#recomputeInactiveX}).
 * </ol>
 * A synchronous runner calls (1) on all nodes before (2) on any; over a bus, (2) waits for the messages.
 * The output is x~_i = A_T^{-1} sum_{t &lt;= T} a_t x_i^(t) ({@link #averagedModel}).
 *
 * <p>Randomness: the sample index (bits at (0, t)) and the noise (bits at (1, t)) come from the node's own
 * keyed stream ("dp-dda/node", runId/node-i), so they are secret, reproducible for replay and independent of
 * the schedule's bits. The privacy guarantee is the {@link DpDdaAccountant}'s, over all messages sent.
 *
 * <p>State is checkpointed between rounds with {@link #snapshot()} and resumed with {@link #resume}. Not
 * thread-safe.
 */
public final class DdaNode {

  /** Stream purpose of the node's sample-index and noise bits. */
  public static final String PURPOSE = "dp-dda/node";

  /** The kind of every DP-DDA stream ({@link KeyedNoiseSource#kind}): never a model's or a bandit's stream. */
  public static final String NOISE_KIND = "dp-dda";

  private static final long SAMPLE_EPOCH = 0;
  private static final long NOISE_EPOCH = 1;

  private final int id;
  private final ErmDataset samples;
  private final DdaSettings settings;
  private final NoiseStream bits;
  private final VectorNoise noise;
  /** The key the run draws under (a run has no epochs: it keeps its key to the end); checkpoints name it. */
  private final KeyCheck key;
  /** The digest of the node's noise law, computed at the first checkpoint. */
  private byte[] law;

  private long completedRounds;
  private final double[] dual;
  private final double[] iterate;
  private final double[] weightedIterateSum;

  private final double[] message;
  private final double[] scratch;
  private long broadcastRound = -1;

  /**
   * A fresh node: z_i^(1) = 0 and x_i^(1) = argmin iota A_1 h(x) + gamma_1 d(x).
   *
   * @param samples D_i; labels must be -1 or +1
   */
  public DdaNode(int id, ErmDataset samples, DdaSettings settings, KeyedNoiseSource source, String runId) {
    this(id, samples, settings, settings.noise(samples.dimension()), source, runId, null);
  }

  /**
   * A fresh node whose messages get {@code noise} instead of the settings' Gaussian: the seam for tests that
   * hold a round to hand-computed values ({@link org.dpstream.core.privacy.noise.ConstantVectorNoise}).
   */
  public DdaNode(int id, ErmDataset samples, DdaSettings settings, VectorNoise noise, KeyedNoiseSource source,
      String runId) {
    this(id, samples, settings, noise, source, runId, null);
  }

  private DdaNode(int id, ErmDataset samples, DdaSettings settings, VectorNoise noise, KeyedNoiseSource source,
      String runId, DdaNodeState state) {
    if (id < 0) {
      throw new IllegalArgumentException("node id must be >= 0: " + id);
    }
    HingeLoss.requireSignLabels(samples);
    this.id = id;
    this.samples = samples;
    this.settings = settings;
    this.bits = source.kind(NOISE_KIND).forStream(PURPOSE, runId + "/node-" + id);
    this.key = source.keyCheck();
    int m = samples.dimension();
    if (noise.dimension() != m) {
      throw new IllegalArgumentException("noise of dimension " + noise.dimension() + " for samples of dimension " + m);
    }
    this.noise = noise;
    this.message = new double[m];
    this.scratch = new double[m];
    if (state == null) {
      dual = new double[m];
      iterate = new double[m];
      weightedIterateSum = new double[m];
      solveDualAveraging(0);
    } else {
      if (!state.key().equals(key)) {
        throw new IllegalArgumentException("the checkpoint of node " + id + " is bound to noise key " + state.key()
            + ", this source's key is " + key);
      }
      if (state.nodeId() != id || state.dual().length != m) {
        throw new IllegalArgumentException(
            "state of node " + state.nodeId() + " (m = " + state.dual().length + ") cannot resume node " + id + " (m = " + m + ")");
      }
      completedRounds = state.completedRounds();
      dual = state.dual();
      iterate = state.iterate();
      weightedIterateSum = state.weightedIterateSum();
    }
  }

  /**
   * The digest of the noise law of a node whose messages get {@code noise}: the noise's description and known
   * answers of it and of the sample index, from the public probe source. A checkpoint carries it.
   */
  public static byte[] lawOf(VectorNoise noise) {
    double[] draw = new double[noise.dimension()];
    noise.sample(NoiseLaw.probeBits("dp-dda/noise"), draw);
    return NoiseLaw.of("dp-dda").text("noise", noise.describe()).numbers("noise draw", draw)
        .number("sample index", NoiseLaw.probeBits("dp-dda/sample").nextInt(1_000_003)).digest();
  }

  /** A node restored from {@link #snapshot()} with the same samples, settings, key and run id. */
  public static DdaNode resume(ErmDataset samples, DdaSettings settings, KeyedNoiseSource source, String runId, DdaNodeState state) {
    return new DdaNode(state.nodeId(), samples, settings, settings.noise(samples.dimension()), source, runId, state);
  }

  public int id() {
    return id;
  }

  /** The round the next {@link #broadcast} must be for: completed rounds + 1. */
  public long nextRound() {
    return completedRounds + 1;
  }

  /** Phase 1 of the round (see the class comment). */
  public void broadcast(GossipRound round, GossipTransport transport) {
    long t = requireNextRound(round);
    double at = settings.schedule().weight(t);
    for (int j = 0; j < iterate.length; j++) {
      weightedIterateSum[j] += at * iterate[j];
    }
    broadcastRound = t;
    if (!round.isActive(id)) {
      return;
    }
    int sample = bits.at(SAMPLE_EPOCH, t).nextInt(samples.size());
    settings.loss().subgradient(samples, sample, iterate, message);
    noise.sample(bits.at(NOISE_EPOCH, t), scratch);
    for (int j = 0; j < message.length; j++) {
      message[j] += scratch[j];
    }
    for (int j = 0; j < message.length; j++) {
      message[j] = dual[j] + at * message[j];
    }
    transport.send(id, t, round.neighboursOf(id), message);
  }

  /** Phase 2 of the round (see the class comment). */
  public void mix(GossipRound round, GossipTransport transport) {
    long t = requireNextRound(round);
    if (broadcastRound != t) {
      throw new IllegalStateException("node " + id + " must broadcast round " + t + " before mixing it");
    }
    if (round.isActive(id)) {
      Set<Integer> neighbours = round.neighboursOf(id);
      Map<Integer, double[]> received = transport.receive(id, t, neighbours);
      double self = round.selfWeight(id);
      for (int j = 0; j < dual.length; j++) {
        dual[j] = self * message[j];
      }
      // Summed in the round's (sorted) neighbour order, not the transport's map order: floating-point addition
      // is not associative, and both modes must produce bit-identical models.
      for (int sender : neighbours) {
        double w = round.weight(id, sender);
        double[] other = received.get(sender);
        if (other == null || other.length != dual.length) {
          throw new IllegalStateException("node " + id + " got no usable message of round " + t + " from node " + sender);
        }
        for (int j = 0; j < dual.length; j++) {
          dual[j] += w * other[j];
        }
      }
      solveDualAveraging(t);
    } else if (settings.recomputeInactiveX()) {
      solveDualAveraging(t);
    }
    completedRounds = t;
  }

  /** x = argmin &lt;z, x&gt; + iota A_{t+1} h(x) + gamma_{t+1} ||x||^2 / 2, eq. (6). */
  private void solveDualAveraging(long t) {
    StepSchedule schedule = settings.schedule();
    settings.prox().minimise(
        dual, settings.iota() * schedule.cumulativeWeight(t + 1), schedule.proxWeight(t + 1), iterate);
  }

  private long requireNextRound(GossipRound round) {
    long t = completedRounds + 1;
    if (round.round() != t) {
      throw new IllegalStateException("node " + id + " is at round " + t + ", got the gossip of round " + round.round());
    }
    return t;
  }

  /** x_i^(t+1), the current iterate (a copy). */
  public double[] iterate() {
    return iterate.clone();
  }

  /** z_i^(t+1), the current dual variable (a copy). */
  public double[] dual() {
    return dual.clone();
  }

  /** x~_i = A_t^{-1} sum_{tau &lt;= t} a_tau x_i^(tau) after t completed rounds; x_i^(1) before any. */
  public double[] averagedModel() {
    if (completedRounds == 0) {
      return iterate.clone();
    }
    double total = settings.schedule().cumulativeWeight(completedRounds);
    double[] average = weightedIterateSum.clone();
    for (int j = 0; j < average.length; j++) {
      average[j] /= total;
    }
    return average;
  }

  /**
   * The state after the last completed round.
   *
   * @throws IllegalStateException between {@link #broadcast} and {@link #mix}, where the state is not at a
   *     round boundary
   */
  public DdaNodeState snapshot() {
    if (broadcastRound > completedRounds) {
      throw new IllegalStateException("snapshot between broadcast and mix of round " + broadcastRound);
    }
    if (law == null) {
      law = lawOf(noise);
    }
    return new DdaNodeState(id, completedRounds, dual, iterate, weightedIterateSum, key, law);
  }
}
