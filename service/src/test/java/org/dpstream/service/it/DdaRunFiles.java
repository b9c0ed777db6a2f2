package org.dpstream.service.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.dpstream.core.erm.ErmDataset;
import org.dpstream.core.erm.FeatureBounds;

/** The files of a DP-DDA run in Mode 2: each node's shard as CSV and the config file every node gets. */
final class DdaRunFiles {

  private DdaRunFiles() {}

  /** Unit-norm Gaussian rows, labels sign(<w*, x>) with 10% flipped; the truth has {@code dimension} = 5. */
  static List<ErmDataset> syntheticShards(int nodes, int samplesPerNode, long seed) {
    int dimension = 5;
    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    ZigguratSampler.NormalizedGaussian gaussian = ZigguratSampler.NormalizedGaussian.of(rng);
    double[] truth = {1, -0.5, 0.25, 0, 0.75};
    List<ErmDataset> shards = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      double[][] rows = new double[samplesPerNode][dimension];
      double[] labels = new double[samplesPerNode];
      for (int k = 0; k < samplesPerNode; k++) {
        double norm = 0;
        for (int j = 0; j < dimension; j++) {
          rows[k][j] = gaussian.sample();
          norm += rows[k][j] * rows[k][j];
        }
        double score = 0;
        for (int j = 0; j < dimension; j++) {
          rows[k][j] /= Math.sqrt(norm) * (1 + 1e-12); // strictly inside the unit ball despite rounding
          score += truth[j] * rows[k][j];
        }
        labels[k] = (score >= 0 ? 1 : -1) * (rng.nextDouble() < 0.1 ? -1 : 1);
      }
      shards.add(ErmDataset.of(rows, labels, FeatureBounds.uniform(dimension, 1.0)));
    }
    return shards;
  }

  /** Writes each shard to {@code directory/node-i.csv}. Double.toString round-trips exactly. */
  static void writeShards(List<ErmDataset> shards, Path directory) throws IOException {
    for (int i = 0; i < shards.size(); i++) {
      ErmDataset shard = shards.get(i);
      StringBuilder csv = new StringBuilder("label");
      for (int j = 0; j < shard.dimension(); j++) {
        csv.append(",x").append(j);
      }
      csv.append('\n');
      for (int k = 0; k < shard.size(); k++) {
        csv.append(shard.label(k) > 0 ? "1" : "-1");
        for (int j = 0; j < shard.dimension(); j++) {
          csv.append(',').append(Double.toString(shard.feature(k, j)));
        }
        csv.append('\n');
      }
      Files.writeString(directory.resolve("node-" + i + ".csv"), csv, StandardCharsets.UTF_8);
    }
  }

  /**
   * The config every node gets: the shards written by {@link #writeShards} in {@code directory}, topics
   * {@code <topicPrefix>.dda.*}, the Kafka client settings {@code kafka}.
   */
  static String config(String runId, int nodes, long rounds, List<ErmDataset> shards, Path directory,
      String topicPrefix, Map<String, String> kafka) {
    String settings = kafka.entrySet().stream().map(e -> e.getKey() + ": '" + e.getValue() + "'")
        .collect(Collectors.joining(", "));
    return String.join("\n",
        "runId: " + runId,
        "nodes: " + nodes,
        "graph: complete",
        "gossip: matching",
        "iota: 0.5",
        "rounds: " + rounds,
        "objective: {regularizer: l2, lambda: 0.01, gamma: 5}",
        "privacy: {epsilon: 1.0, activeSet: hidden}",
        "data: {shard: '" + directory.resolve("node-{node}.csv") + "', samplesPerNode: " + shards.get(0).size()
            + ", dimension: " + shards.get(0).dimension() + "}",
        "topics: {gossip: " + topicPrefix + ".dda.gossip, checkpoints: " + topicPrefix + ".dda.checkpoints, models: "
            + topicPrefix + ".dda.models}",
        "kafka: {" + settings + "}",
        "checkpointEvery: 5",
        "logEvery: 50",
        "roundTimeout: PT3M",
        "");
  }
}
