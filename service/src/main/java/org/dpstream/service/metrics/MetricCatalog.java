package org.dpstream.service.metrics;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Every metric family the service exports, by its Prometheus name, classified: public (a function of the
 * releases, the configuration, time, and the number, keys and timing of records) or raw (a statistic of the data).
 * /metrics exports the {@link #PUBLIC} families only, unless {@code metrics.raw: true}; any other meter, a Kafka
 * client metric this list does not name included, is raw. docs/operations.md ("Metrics") argues each class and its
 * table is checked against these lists.
 */
public final class MetricCatalog {

  /** A metric family and, for a public one, what it is a function of; for a raw one, what of the data it shows. */
  public record Family(String name, String why) {}

  private static final String EVENTS = "the number and timing of records";
  private static final String LEDGER = "the model's ledger (released with every step) and the configuration";
  private static final String MEMBERSHIP = "the deployment (threads, tasks, group membership, brokers) and time";

  /** The families /metrics exports by default. */
  public static final List<Family> PUBLIC = List.of(
      // The models, per instance.
      new Family("dpstream_samples_processed_total", "steps taken on this instance: the releases' steps"),
      new Family("dpstream_samples_rejected_total", "inputs rejected, all reasons together: " + EVENTS
          + " less the steps"),
      new Family("dpstream_models", "models on this instance by status (learning, budget_exhausted): " + LEDGER),
      new Family("dpstream_models_by_budget_spent", "models on this instance whose epsilon spent / budget is at most"
          + " each bound: " + LEDGER),
      new Family("dpstream_models_by_clip_rate", "adaptive-clipping models on this instance whose released clipping"
          + " rate is at most each bound: the released norm histograms"),
      // The models with per-model series (metrics.perModelLimit, metrics.models).
      new Family("dpstream_model_step", "the model's step: its releases"),
      new Family("dpstream_tree_epoch", "the model's epoch: its releases"),
      new Family("dpstream_epsilon_spent", LEDGER),
      new Family("dpstream_epsilon_budget", "the configuration"),
      new Family("dpstream_model_clip_rate", "the noisy share of the last finished block's increments above its"
          + " threshold: the released norm histogram of adaptive clipping"),
      // The bandits.
      new Family("dpstream_bandit_rounds", "the bandit's releases (their step)"),
      new Family("dpstream_bandit_epsilon_spent", "the bandit's joint ledger, released with every round"),
      new Family("dpstream_bandit_decisions_total", "decisions by phase: " + EVENTS
          + "; the phase is a function of the released round"),
      new Family("dpstream_bandit_rewards_joined_total", EVENTS),
      new Family("dpstream_bandit_rewards_expired_total", EVENTS + " and the configured timeout and policy"),
      new Family("dpstream_bandit_rewards_held_total", "the order of decisions and rewards: " + EVENTS),
      new Family("dpstream_bandit_rejected_total", "bandit inputs rejected, all reasons together: " + EVENTS),
      // The deciders.
      new Family("dpstream_decider_decisions_total", "decisions by path and phase: " + EVENTS
          + "; the phase is a function of the released round"),
      new Family("dpstream_decider_released_step", "the releases the deciders follow"),
      new Family("dpstream_decider_log_write_failures_total", "the producer's failures: the brokers and time"),
      new Family("dpstream_decider_reward_write_failures_total", "the producer's failures: the brokers and time"),
      new Family("dpstream_decider_rewards_refused_total", "rewards of decisions whose log write failed: the brokers"
          + " and time"),
      // The service.
      new Family("dpstream_ready", "the stream threads' states and polls, the deciders' catching up: " + MEMBERSHIP),
      // Kafka Streams: state and membership.
      new Family("kafka_stream_alive_stream_threads", MEMBERSHIP),
      new Family("kafka_stream_client_state", MEMBERSHIP),
      new Family("kafka_stream_failed_stream_threads_total", MEMBERSHIP),
      new Family("kafka_stream_recording_level", "the configuration"),
      new Family("kafka_stream_thread_thread_state", MEMBERSHIP),
      new Family("kafka_stream_thread_thread_start_time", MEMBERSHIP),
      new Family("kafka_stream_thread_task_created_rate", MEMBERSHIP),
      new Family("kafka_stream_thread_task_total", MEMBERSHIP),
      new Family("kafka_stream_thread_task_closed_rate", MEMBERSHIP),
      new Family("kafka_stream_thread_task_closed_total", MEMBERSHIP),
      new Family("kafka_app_info_start_time_seconds", MEMBERSHIP),
      // Kafka Streams: records.
      new Family("kafka_stream_thread_process_total", EVENTS),
      new Family("kafka_stream_thread_process_rate", EVENTS),
      new Family("kafka_stream_thread_commit_total", "commits every commit.interval.ms: the configuration and time"),
      new Family("kafka_stream_thread_commit_rate", "commits every commit.interval.ms: the configuration and time"),
      new Family("kafka_stream_thread_punctuate_total", "punctuations on stream time: " + EVENTS),
      new Family("kafka_stream_thread_punctuate_rate", "punctuations on stream time: " + EVENTS),
      // The consumers.
      new Family("kafka_consumer_fetch_manager_records_consumed_total", EVENTS),
      new Family("kafka_consumer_fetch_manager_records_consumed_rate", EVENTS),
      new Family("kafka_consumer_fetch_manager_records_lag_max", "offsets: " + EVENTS),
      new Family("kafka_consumer_fetch_manager_records_lead_min", "offsets: " + EVENTS),
      new Family("kafka_consumer_coordinator_commit_total", "offset commits: the configuration and time"),
      new Family("kafka_consumer_coordinator_commit_rate", "offset commits: the configuration and time"),
      new Family("kafka_consumer_coordinator_assigned_partitions", MEMBERSHIP),
      new Family("kafka_consumer_coordinator_rebalance_total", MEMBERSHIP),
      new Family("kafka_consumer_coordinator_rebalance_rate_per_hour", MEMBERSHIP),
      new Family("kafka_consumer_coordinator_failed_rebalance_total", MEMBERSHIP),
      new Family("kafka_consumer_coordinator_failed_rebalance_rate_per_hour", MEMBERSHIP),
      new Family("kafka_consumer_coordinator_last_rebalance_seconds_ago", MEMBERSHIP),
      new Family("kafka_consumer_coordinator_join_total", MEMBERSHIP),
      new Family("kafka_consumer_coordinator_sync_total", MEMBERSHIP),
      new Family("kafka_consumer_coordinator_heartbeat_total", MEMBERSHIP),
      new Family("kafka_consumer_coordinator_last_heartbeat_seconds_ago", MEMBERSHIP),
      // The producers.
      new Family("kafka_producer_record_send_total", EVENTS + " written: releases, rejections, decisions, states"),
      new Family("kafka_producer_record_send_rate", EVENTS + " written: releases, rejections, decisions, states"),
      new Family("kafka_producer_record_error_total", "the brokers' answers and time"),
      new Family("kafka_producer_record_retry_total", "the brokers' answers and time"),
      // Every client: connections and authentication.
      new Family("kafka_consumer_connections", MEMBERSHIP),
      new Family("kafka_producer_connections", MEMBERSHIP),
      new Family("kafka_admin_client_connections", MEMBERSHIP),
      new Family("kafka_consumer_connection_creation_total", MEMBERSHIP),
      new Family("kafka_producer_connection_creation_total", MEMBERSHIP),
      new Family("kafka_admin_client_connection_creation_total", MEMBERSHIP),
      new Family("kafka_consumer_connection_close_total", MEMBERSHIP),
      new Family("kafka_producer_connection_close_total", MEMBERSHIP),
      new Family("kafka_admin_client_connection_close_total", MEMBERSHIP),
      new Family("kafka_consumer_failed_authentication_total", "the security configuration and time"),
      new Family("kafka_producer_failed_authentication_total", "the security configuration and time"),
      new Family("kafka_admin_client_failed_authentication_total", "the security configuration and time"),
      new Family("kafka_consumer_successful_authentication_total", "the security configuration and time"),
      new Family("kafka_producer_successful_authentication_total", "the security configuration and time"),
      new Family("kafka_admin_client_successful_authentication_total", "the security configuration and time"));

  /** The service's own families that are raw; every Kafka client metric outside {@link #PUBLIC} is raw too. */
  public static final List<Family> RAW = List.of(
      new Family("dpstream_samples_clipped_total", "whether each sample or its increment was clipped: one bit of"
          + " every sample"),
      new Family("dpstream_samples_rejected_by_reason_total", "what is wrong with each rejected input: its content"),
      new Family("dpstream_step_latency_seconds", "the time each step takes, which depends on the sample"
          + " (sparse or dense, clipped or not)"),
      new Family("dpstream_processing_errors_total", "which inputs make processing fail: their content"),
      new Family("dpstream_bandit_decisions_by_arm_total", "the arms chosen, functions of users' contexts"),
      new Family("dpstream_bandit_reward_cumulative", "the sum of raw rewards: its differences are single rewards"),
      new Family("dpstream_bandit_rejected_by_reason_total", "what is wrong with each rejected input: its content"),
      new Family("dpstream_bandit_decision_latency_seconds", "the time from a context to its decision, which depends"
          + " on the context"),
      new Family("dpstream_decider_decision_latency_seconds", "the time from a request to its answer, which depends"
          + " on the request (its body, its context)"));

  private static final Set<String> PUBLIC_NAMES = names(PUBLIC);

  private static final List<String> HISTOGRAM_SUFFIXES = List.of("_bucket", "_count", "_sum", "_max");

  private MetricCatalog() {}

  public static boolean isPublic(String family) {
    return PUBLIC_NAMES.contains(family);
  }

  /**
   * The family a sample line's name belongs to: itself, or a histogram's family for its {@code _bucket},
   * {@code _count}, {@code _sum} and {@code _max} series.
   */
  public static String familyOfSample(String sampleName, Set<String> families) {
    if (families.contains(sampleName)) {
      return sampleName;
    }
    for (String suffix : HISTOGRAM_SUFFIXES) {
      if (sampleName.endsWith(suffix)) {
        String base = sampleName.substring(0, sampleName.length() - suffix.length());
        if (families.contains(base)) {
          return base;
        }
      }
    }
    return sampleName;
  }

  public static Set<String> names(List<Family> families) {
    return families.stream().map(Family::name).collect(Collectors.toUnmodifiableSet());
  }
}
