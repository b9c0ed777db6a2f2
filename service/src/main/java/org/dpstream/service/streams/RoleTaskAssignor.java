package org.dpstream.service.streams;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.assignment.ApplicationState;
import org.apache.kafka.streams.processor.assignment.AssignmentConfigs;
import org.apache.kafka.streams.processor.assignment.KafkaStreamsAssignment;
import org.apache.kafka.streams.processor.assignment.KafkaStreamsState;
import org.apache.kafka.streams.processor.assignment.ProcessId;
import org.apache.kafka.streams.processor.assignment.TaskAssignor;
import org.apache.kafka.streams.processor.assignment.TaskInfo;
import org.apache.kafka.streams.processor.assignment.assignors.StickyTaskAssignor;

/**
 * Kafka Streams' task assignor for a service with bandits: the bandits' tasks go to the Kafka Streams clients of the
 * {@link LearningRole#BANDITS} role, every other task to the {@link LearningRole#MODELS} clients, so a bandit's
 * learning never waits behind a model's backlog on a stream thread (docs/bandit-decider.md, "Learning under load").
 * Within a role, Kafka's own {@link StickyTaskAssignor} places the tasks (and any standbys) over that role's
 * clients; a role with no client in the group (an instance of an older build, or one half still joining) has its
 * tasks placed over every client, so no task is left unassigned.
 *
 * <p>A client's role is its {@code client.tag.}{@value LearningRole#TAG} (set by {@link StreamsSettings#forRole}).
 * A task is the bandits' when one of its source topics is in {@value #BANDIT_TOPICS_CONFIG} (the decision log or
 * dp.contexts, dp.rewards and the bandits' routing topic). Every task is still active in exactly one client, so
 * one bandit, one state, one noise sequence holds as with the default assignor.
 */
public final class RoleTaskAssignor implements TaskAssignor {

  /** The config key of the bandits' source topics, comma-separated (topic names hold no comma). */
  public static final String BANDIT_TOPICS_CONFIG = "dpstream.bandit.source.topics";

  private Set<String> banditTopics = Set.of();

  @Override
  public void configure(Map<String, ?> configs) {
    Object topics = configs.get(BANDIT_TOPICS_CONFIG);
    if (!(topics instanceof String names) || names.isBlank()) {
      throw new IllegalArgumentException(BANDIT_TOPICS_CONFIG + " must name the bandits' source topics, got " + topics);
    }
    banditTopics = Set.of(names.split(","));
  }

  @Override
  public TaskAssignment assign(ApplicationState state) {
    Map<ProcessId, KafkaStreamsState> clients = state.kafkaStreamsStates(false);
    Map<ProcessId, KafkaStreamsAssignment> merged = new HashMap<>();
    clients.keySet().forEach(id -> merged.put(id, KafkaStreamsAssignment.of(id, Set.of())));
    for (LearningRole role : LearningRole.values()) {
      Predicate<TaskInfo> ofRole = task -> roleOf(task) == role;
      if (state.allTasks().values().stream().noneMatch(ofRole)) {
        continue;
      }
      Set<ProcessId> members = clients.values().stream()
          .filter(client -> role.label().equals(client.clientTags().get(LearningRole.TAG)))
          .map(KafkaStreamsState::processId).collect(Collectors.toSet());
      Predicate<ProcessId> eligible = members.isEmpty() ? id -> true : members::contains;
      TaskAssignment part = new StickyTaskAssignor().assign(new Restricted(state, ofRole, eligible));
      for (KafkaStreamsAssignment assigned : part.assignment()) {
        KafkaStreamsAssignment into = merged.get(assigned.processId());
        assigned.tasks().values().forEach(into::assignTask);
      }
    }
    return new TaskAssignment(new ArrayList<>(merged.values()));
  }

  /** The role whose clients run {@code task}. */
  LearningRole roleOf(TaskInfo task) {
    boolean bandit = task.topicPartitions().stream()
        .anyMatch(partition -> partition.isSource() && banditTopics.contains(partition.topicPartition().topic()));
    return bandit ? LearningRole.BANDITS : LearningRole.MODELS;
  }

  /** The application as one role sees it: its tasks and the clients that may run them. */
  private record Restricted(ApplicationState whole, Predicate<TaskInfo> tasks, Predicate<ProcessId> clients)
      implements ApplicationState {

    @Override
    public Map<ProcessId, KafkaStreamsState> kafkaStreamsStates(boolean computeTaskLags) {
      return whole.kafkaStreamsStates(computeTaskLags).entrySet().stream()
          .filter(entry -> clients.test(entry.getKey()))
          .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    @Override
    public AssignmentConfigs assignmentConfigs() {
      return whole.assignmentConfigs();
    }

    @Override
    public Map<TaskId, TaskInfo> allTasks() {
      return whole.allTasks().entrySet().stream()
          .filter(entry -> tasks.test(entry.getValue()))
          .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }
  }
}
