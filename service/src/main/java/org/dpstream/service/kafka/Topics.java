package org.dpstream.service.kafka;

import java.util.List;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.dpstream.schemas.BanditStepRelease;
import org.dpstream.schemas.DecidedRequest;
import org.dpstream.schemas.DecisionRequest;
import org.dpstream.schemas.DecisionResponse;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.RejectedRecord;
import org.dpstream.schemas.Reward;
import org.dpstream.schemas.Sample;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.service.serde.OutputFormat;

/**
 * The catalogue of dpstream's topics, each with its serdes. Keys are model ids (samples, releases,
 * rejected) or bandit ids (contexts, decisions, rewards), all strings; contexts and rewards share
 * the bandit id as key so they are co-partitioned.
 *
 * <p>The service's outputs (releases, rejected, decisions) are serialized in the configured
 * {@link OutputFormat}; every serde reads both formats, so readers need not know which one was chosen.
 *
 * <p>Immutable; build one per application from configured {@link TopicNames}.
 */
public final class Topics {

  private final Topic<String, Sample> samples;
  private final Topic<String, ModelRelease> releases;
  private final Topic<String, BanditStepRelease> banditSteps;
  private final Topic<String, RejectedRecord> rejected;
  private final Topic<String, DecisionRequest> contexts;
  private final Topic<String, DecisionResponse> decisions;
  private final Topic<String, Reward> rewards;
  private final Topic<String, DecidedRequest> decided;

  /** The catalogue with outputs in Avro. */
  public Topics(TopicNames names) {
    this(names, OutputFormat.AVRO);
  }

  /** The catalogue with outputs in {@code outputs}. */
  public Topics(TopicNames names, OutputFormat outputs) {
    Serde<String> keys = Serdes.String();
    samples = new Topic<>(names.samples(), keys, DpSerdes.sample());
    releases = new Topic<>(names.releases(), keys, DpSerdes.modelRelease().writing(outputs));
    banditSteps = new Topic<>(names.releases(), keys, DpSerdes.banditStepRelease().writing(outputs));
    rejected = new Topic<>(names.rejected(), keys, DpSerdes.rejectedRecord().writing(outputs));
    contexts = new Topic<>(names.contexts(), keys, DpSerdes.decisionRequest());
    decisions = new Topic<>(names.decisions(), keys, DpSerdes.decisionResponse().writing(outputs));
    rewards = new Topic<>(names.rewards(), keys, DpSerdes.reward());
    decided = new Topic<>(names.decided(), keys, DpSerdes.decidedRequest());
  }

  /** The catalogue with the default {@code dp.*} names. */
  public static Topics defaults() {
    return new Topics(TopicNames.defaults());
  }

  public Topic<String, Sample> samples() {
    return samples;
  }

  public Topic<String, ModelRelease> releases() {
    return releases;
  }

  /** dp.releases as the bandits' step records are written to it (key = bandit id), next to the models' releases. */
  public Topic<String, BanditStepRelease> banditSteps() {
    return banditSteps;
  }

  public Topic<String, RejectedRecord> rejected() {
    return rejected;
  }

  public Topic<String, DecisionRequest> contexts() {
    return contexts;
  }

  public Topic<String, DecisionResponse> decisions() {
    return decisions;
  }

  public Topic<String, Reward> rewards() {
    return rewards;
  }

  /** The decision log: each decision with the context it was made on, written by the deciders, read by learning. */
  public Topic<String, DecidedRequest> decided() {
    return decided;
  }

  public List<Topic<?, ?>> all() {
    return List.of(samples, releases, rejected, contexts, decisions, rewards, decided);
  }

  /**
   * What to create on a fresh cluster: every topic with the same partition count (contexts and
   * rewards must match to be co-partitioned).
   */
  public List<TopicSpec> specs(int partitions) {
    return all().stream().map(topic -> TopicSpec.of(topic.name(), partitions)).toList();
  }

  /** {@link #specs(int)} for the admin client, e.g. to create them on the embedded broker. */
  public List<NewTopic> newTopics(int partitions) {
    return specs(partitions).stream().map(TopicSpec::newTopic).toList();
  }
}
