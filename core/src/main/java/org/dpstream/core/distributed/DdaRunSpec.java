package org.dpstream.core.distributed;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.dpstream.core.erm.ErmDataset;
import org.dpstream.core.privacy.random.KeyedNoiseSource;
import org.dpstream.core.privacy.random.NoiseKeyRing;
import org.dpstream.core.state.StateBindingException;
import org.dpstream.core.state.VersionedState;

/**
 * Everything the nodes of one DP-DDA run must agree on: the run id (which, with the key, fixes all
 * randomness), the gossip, the node settings, the horizon T, the shard size q and the dimension m. Both modes
 * build their nodes from it, so the in-process simulation and separate nodes over a bus compute the same
 * model from the same shards.
 *
 * <p>{@link #fingerprint()} hashes the whole spec; nodes stamp it on their messages and checkpoints so that
 * a node started with a different configuration is refused instead of silently breaking the consensus. It
 * describes public configuration only. Immutable.
 *
 * @param runId names the run's keyed streams; a new run needs a new id
 * @param sampler the supergraph, iota and the edge activation
 * @param settings sigma, schedule, regulariser, loss
 * @param rounds the horizon T
 * @param samplesPerNode q, the size of every shard (Theorem 1 assumes equal sizes; sigma is calibrated for q)
 * @param dimension m
 */
public record DdaRunSpec(String runId, GossipSampler sampler, DdaSettings settings, long rounds, int samplesPerNode,
    int dimension) {

  public DdaRunSpec {
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(sampler, "sampler");
    Objects.requireNonNull(settings, "settings");
    if (runId.isBlank()) {
      throw new IllegalArgumentException("the run id must not be blank");
    }
    if (settings.iota() != sampler.iota()) {
      throw new IllegalArgumentException("settings and sampler disagree on iota: " + settings.iota() + " vs " + sampler.iota());
    }
    if (rounds < 1 || samplesPerNode < 1 || dimension < 1) {
      throw new IllegalArgumentException("rounds, samples per node and dimension must be >= 1");
    }
  }

  /** n. */
  public int nodeCount() {
    return sampler.graph().nodeCount();
  }

  /** The gossip of every round, the same in every process that holds the key. */
  public KeyedGossipSchedule schedule(KeyedNoiseSource source) {
    return new KeyedGossipSchedule(sampler, source, runId);
  }

  /** A fresh node {@code id} holding {@code shard}. */
  public DdaNode newNode(int id, ErmDataset shard, KeyedNoiseSource source) {
    requireNode(id);
    requireShard(id, shard);
    return new DdaNode(id, shard, settings, source, runId);
  }

  /** Node {@code state.nodeId()} resumed from its checkpoint under its key, which must be {@code source}'s. */
  public DdaNode resumeNode(DdaNodeState state, ErmDataset shard, KeyedNoiseSource source) throws StateBindingException {
    return resumeNode(state, shard, NoiseKeyRing.of(source));
  }

  /**
   * Node {@code state.nodeId()} resumed from its checkpoint under the key the checkpoint names, which must be in
   * {@code keys} ({@link #keyOf}).
   *
   * @throws StateBindingException if the ring lacks the checkpoint's key or its noise law is not this build's
   */
  public DdaNode resumeNode(DdaNodeState state, ErmDataset shard, NoiseKeyRing keys) throws StateBindingException {
    requireNode(state.nodeId());
    requireShard(state.nodeId(), shard);
    if (state.completedRounds() > rounds) {
      throw new IllegalArgumentException("checkpoint of node " + state.nodeId() + " is at round "
          + state.completedRounds() + ", past the horizon T = " + rounds);
    }
    return DdaNode.resume(shard, settings, keyOf(state, keys), runId, state);
  }

  /**
   * The key of {@code keys} a checkpoint's run draws under: the one it names. A run has no epochs, so a node bound to
   * a retired key keeps it to the end of the run (and so does every node of the run: they share the gossip schedule's
   * stream, {@link #schedule}): rotate keys between runs.
   *
   * @throws StateBindingException if the ring lacks that key or the checkpoint's noise law is not this build's
   */
  public KeyedNoiseSource keyOf(DdaNodeState state, NoiseKeyRing keys) throws StateBindingException {
    String what = "DP-DDA checkpoint of node " + state.nodeId() + " of run " + runId;
    return new VersionedState.Binding(state.key(), Long.MAX_VALUE, state.law())
        .resume(keys, DdaNode.lawOf(settings.noise(dimension)), what).forEpoch(0);
  }

  /** Mode 1 on these shards, one per node in order. */
  public DdaSimulation simulation(List<ErmDataset> shards, KeyedNoiseSource source) {
    for (int i = 0; i < shards.size(); i++) {
      requireShard(i, shards.get(i));
    }
    return new DdaSimulation(shards, settings, sampler, source, runId);
  }

  private void requireNode(int id) {
    if (id < 0 || id >= nodeCount()) {
      throw new IllegalArgumentException("node id " + id + " is not in 0.." + (nodeCount() - 1));
    }
  }

  private void requireShard(int id, ErmDataset shard) {
    if (shard.size() != samplesPerNode) {
      throw new IllegalArgumentException("node " + id + " holds " + shard.size() + " samples, the run declares q = "
          + samplesPerNode + " (sigma is calibrated for q; Theorem 1 assumes equal shards)");
    }
    if (shard.dimension() != dimension) {
      throw new IllegalArgumentException("node " + id + "'s samples have dimension " + shard.dimension()
          + ", the run declares m = " + dimension);
    }
  }

  /** The canonical text the fingerprint hashes; doubles in their exact shortest form. */
  public String canonicalForm() {
    return String.join("|", List.of(
        "dp-dda/v1", runId, sampler.graph().toString(), sampler.graph().adjacency(), sampler.mode().name(),
        Double.toString(settings.iota()), Double.toString(settings.sigma()), settings.schedule().toString(),
        settings.prox().regularizer().kind().name(),
        Double.toString(settings.prox().regularizer().l1Weight()), Double.toString(settings.prox().regularizer().l2Weight()),
        settings.prox().feasibleSet().toString(), settings.loss().toString(), Boolean.toString(settings.recomputeInactiveX()),
        Long.toString(rounds), Integer.toString(samplesPerNode), Integer.toString(dimension)));
  }

  /** The first 16 bytes of SHA-256 of {@link #canonicalForm()}, in hex. */
  public String fingerprint() {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonicalForm().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "DP-DDA run %s: %s, T=%d, q=%d, m=%d, sigma=%.6g, %s, %s",
        runId, sampler, rounds, samplesPerNode, dimension, settings.sigma(), settings.schedule(), settings.prox());
  }
}
