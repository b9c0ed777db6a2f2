package org.dpstream.service.dda;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Objects;
import org.dpstream.core.distributed.DdaRunSpec;
import org.dpstream.core.distributed.DdaSettings;
import org.dpstream.core.distributed.DpDdaAccountant;
import org.dpstream.core.distributed.DualAveragingProx;
import org.dpstream.core.distributed.FeasibleSet;
import org.dpstream.core.distributed.GossipGraph;
import org.dpstream.core.distributed.GossipSampler;
import org.dpstream.core.distributed.HingeLoss;
import org.dpstream.core.distributed.StepSchedule;
import org.dpstream.core.erm.Regularizer;

/**
 * The configuration file of a DP-DDA deployment in Mode 2 ({@code dpstream dda-node --node-id i --config
 * FILE}): one file for all nodes, which differ only in their id. See {@code config/dda-node.yaml} for an
 * annotated example. Everything here is public; the noise key comes from the environment, as for {@code run}.
 *
 * @param runId names the run; with the key it fixes the schedule and every node's noise
 * @param nodes n
 * @param graph complete, ring, grid or erdos-renyi
 * @param edgeProbability p of erdos-renyi
 * @param graphSeed the public seed of the erdos-renyi draw
 * @param gossip matching or metropolis
 * @param iota node sampling ratio; n iota must be an integer
 * @param rounds the horizon T
 * @param objective regulariser, constraint and step schedule
 * @param privacy the target and how sigma is calibrated
 * @param data where each node finds its shard
 * @param topics gossip, checkpoint and model topic names
 * @param kafka client settings passed through untouched (bootstrap.servers, SASL/SSL)
 * @param checkpointEvery commit the node's state every k rounds (and after the last)
 * @param roundTimeout how long a node waits for a round's messages before it exits (ISO-8601, e.g. PT10M)
 * @param logEvery print progress every k rounds (0: only start and end)
 */
public record DdaNodeConfig(
    String runId, int nodes, String graph, Double edgeProbability, Long graphSeed, String gossip, double iota,
    long rounds, Objective objective, Privacy privacy, Data data, Topics topics, Map<String, String> kafka,
    Integer checkpointEvery, String roundTimeout, Integer logEvery) {

  public DdaNodeConfig {
    Objects.requireNonNull(runId, "runId");
    graph = graph == null ? "complete" : graph;
    edgeProbability = edgeProbability == null ? 0.3 : edgeProbability;
    graphSeed = graphSeed == null ? 0L : graphSeed;
    gossip = gossip == null ? "matching" : gossip;
    objective = objective == null ? new Objective(null, null, null, null, null, null, null) : objective;
    Objects.requireNonNull(privacy, "privacy");
    Objects.requireNonNull(data, "data");
    topics = topics == null ? new Topics(null, null, null) : topics;
    kafka = Map.copyOf(kafka == null ? Map.of() : kafka);
    checkpointEvery = checkpointEvery == null ? 10 : checkpointEvery;
    roundTimeout = roundTimeout == null ? "PT10M" : roundTimeout;
    logEvery = logEvery == null ? 100 : logEvery;
    if (nodes < 1) {
      throw new IllegalArgumentException("nodes must be >= 1: " + nodes);
    }
    if (rounds < 1) {
      throw new IllegalArgumentException("rounds must be >= 1: " + rounds);
    }
    if (checkpointEvery < 1 || logEvery < 0) {
      throw new IllegalArgumentException("checkpointEvery must be >= 1 and logEvery >= 0");
    }
    if (!kafka.containsKey("bootstrap.servers")) {
      throw new IllegalArgumentException("kafka.bootstrap.servers is required");
    }
    roundTimeoutDuration(roundTimeout);
  }

  /**
   * The regulariser h, the constraint X and the schedule of Algorithm 1.
   *
   * @param regularizer l2 (default), l1, elastic-net or none
   * @param lambda its weight (default 5e-4, the paper's)
   * @param l1Ratio elastic-net's share of l1 (default 0.5)
   * @param constraint none (default), ball or box
   * @param radius the ball's radius, or the box's half-width
   * @param schedule strongly-convex (a_t = t; needs an l2 part) or general-convex (a_t = 1, gamma_t = gamma
   *     sqrt t); default strongly-convex for l2 and elastic-net, general-convex otherwise
   * @param gamma default 20 (strongly convex) or 0.01 (general convex), the paper's
   */
  public record Objective(String regularizer, Double lambda, Double l1Ratio, String constraint, Double radius,
      String schedule, Double gamma) {

    public Objective {
      regularizer = regularizer == null ? "l2" : regularizer;
      lambda = lambda == null ? 5e-4 : lambda;
      l1Ratio = l1Ratio == null ? 0.5 : l1Ratio;
      constraint = constraint == null ? "none" : constraint;
      schedule = schedule == null ? (regularizer.equals("l2") || regularizer.equals("elastic-net")
          ? "strongly-convex" : "general-convex") : schedule;
      gamma = gamma == null ? (schedule.equals("strongly-convex") ? 20 : 0.01) : gamma;
    }

    DualAveragingProx prox() {
      Regularizer h = switch (regularizer) {
        case "l2" -> Regularizer.l2(lambda);
        case "l1" -> Regularizer.l1(lambda);
        case "elastic-net" -> Regularizer.elasticNet(lambda, l1Ratio);
        case "none" -> Regularizer.none();
        default -> throw new IllegalArgumentException("objective.regularizer must be l2, l1, elastic-net or none, got '" + regularizer + "'");
      };
      FeasibleSet set = switch (constraint) {
        case "none" -> FeasibleSet.wholeSpace();
        case "ball" -> FeasibleSet.ball(requireRadius());
        case "box" -> FeasibleSet.box(-requireRadius(), requireRadius());
        default -> throw new IllegalArgumentException("objective.constraint must be none, ball or box, got '" + constraint + "'");
      };
      return new DualAveragingProx(h, set);
    }

    private double requireRadius() {
      if (radius == null) {
        throw new IllegalArgumentException("objective.radius is required for a " + constraint + " constraint");
      }
      return radius;
    }

    StepSchedule stepSchedule(DualAveragingProx prox) {
      return switch (schedule) {
        case "strongly-convex" -> {
          if (!(prox.strongConvexity() > 0) && gamma == 0) {
            throw new IllegalArgumentException(
                "the strongly-convex schedule needs a strongly convex regulariser (an l2 part) or gamma > 0");
          }
          yield StepSchedule.stronglyConvex(gamma);
        }
        case "general-convex" -> StepSchedule.generalConvex(gamma);
        default -> throw new IllegalArgumentException("objective.schedule must be strongly-convex or general-convex, got '" + schedule + "'");
      };
    }
  }

  /**
   * The privacy target and the accounting of Theorem 1 ({@link DpDdaAccountant}).
   * The privacy target and the accounting of Theorem 1 ({@link DdaRunPrivacy}, {@link DpDdaAccountant}).
   * @param epsilon the target epsilon sigma is calibrated for
   * @param delta0 per-release delta_0 of Lemma 4.1 (default 0.01, the paper's)
   * @param noiseConstant proof-closes (160, default), utility-appendices (40) or as-stated (32)
   * @param compositionDelta a fixed delta' of the composition; default the paper's sqrt(sum eps'^2)
   * @param activeSet observable (default) or hidden: whether the accounting may assume nobody learns which
   *     nodes are active. Over Kafka every node sees who messages it and anyone with read access to the gossip
   *     topic sees all senders, so the default claims no amplification by node sampling
   * @param sigma an explicit noise scale instead of the calibration (the report still gives what it obtains)
   * @param lipschitz L: the declared bound on every sample's ||x||_2 (default 1, normalised rows); shards
   *     with a longer row are refused
   */
  public record Privacy(double epsilon, Double delta0, String noiseConstant, Double compositionDelta,
      String activeSet, Double sigma, Double lipschitz) {

    public Privacy {
      delta0 = delta0 == null ? 0.01 : delta0;
      noiseConstant = noiseConstant == null ? "proof-closes" : noiseConstant;
      activeSet = activeSet == null ? "observable" : activeSet;
      lipschitz = lipschitz == null ? 1.0 : lipschitz;
      if (!(epsilon > 0) || Double.isInfinite(epsilon)) {
        throw new IllegalArgumentException("privacy.epsilon must be positive and finite: " + epsilon);
      }
    }
  }

  /**
   * Where node i finds its shard: {@code shard} with {@code {node}} replaced by i. Each node reads only its
   * own file.
   *
   * @param shard path template, e.g. {@code data/dda/node-{node}.csv}
   * @param format csv, libsvm or auto (from the file name; the default)
   * @param samplesPerNode q: every shard must hold exactly q samples
   * @param dimension m
   */
  public record Data(String shard, String format, int samplesPerNode, int dimension) {

    /** The placeholder of the node id in {@link #shard}. */
    public static final String NODE_PLACEHOLDER = "{node}";

    public Data {
      Objects.requireNonNull(shard, "data.shard");
      format = format == null ? "auto" : format;
      if (!shard.contains(NODE_PLACEHOLDER)) {
        throw new IllegalArgumentException("data.shard must contain " + NODE_PLACEHOLDER + " (each node reads only its own shard): " + shard);
      }
      if (samplesPerNode < 1 || dimension < 1) {
        throw new IllegalArgumentException("data.samplesPerNode and data.dimension must be >= 1");
      }
    }

    public String shardOf(int node) {
      return shard.replace(NODE_PLACEHOLDER, Integer.toString(node));
    }
  }

  /**
   * @param gossip round messages, at least n partitions: partition i is node i's inbox
   * @param checkpoints node states, compacted
   * @param models each node's final averaged model as a ModelRelease, key = run id/node-i
   */
  public record Topics(String gossip, String checkpoints, String models) {
    public Topics {
      gossip = gossip == null ? "dp.dda.gossip" : gossip;
      checkpoints = checkpoints == null ? "dp.dda.checkpoints" : checkpoints;
      models = models == null ? "dp.dda.models" : models;
    }
  }

  public Duration roundTimeoutDuration() {
    return roundTimeoutDuration(roundTimeout);
  }

  private static Duration roundTimeoutDuration(String text) {
    try {
      Duration duration = Duration.parse(text);
      if (duration.isNegative() || duration.isZero()) {
        throw new IllegalArgumentException("roundTimeout must be positive: " + text);
      }
      return duration;
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("roundTimeout must be an ISO-8601 duration such as PT10M, got '" + text + "'");
    }
  }

  /** The run's accounting: its accountant, sigma, guarantee and ledger. */
  public DdaRunPrivacy runPrivacy() {
    return new DdaRunPrivacy(this);
  }

  /** Everything the nodes agree on, validated; the same spec drives Mode 1 and Mode 2. */
  public DdaRunSpec runSpec() {
    GossipSampler sampler = new GossipSampler(GossipGraph.named(graph, nodes, edgeProbability, graphSeed), iota,
        GossipSampler.Mode.named(gossip));
    DualAveragingProx prox = objective.prox();
    DdaSettings settings = DdaSettings.of(iota, runPrivacy().sigma(), objective.stepSchedule(prox), prox,
        HingeLoss.ofRowNormBound(privacy.lipschitz()));
    return new DdaRunSpec(runId, sampler, settings, rounds, data.samplesPerNode(), data.dimension());
  }
}
