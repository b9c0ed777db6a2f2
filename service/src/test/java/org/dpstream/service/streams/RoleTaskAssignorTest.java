package org.dpstream.service.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.UUID;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.assignment.ApplicationState;
import org.apache.kafka.streams.processor.assignment.AssignmentConfigs;
import org.apache.kafka.streams.processor.assignment.KafkaStreamsAssignment;
import org.apache.kafka.streams.processor.assignment.KafkaStreamsAssignment.AssignedTask;
import org.apache.kafka.streams.processor.assignment.KafkaStreamsState;
import org.apache.kafka.streams.processor.assignment.ProcessId;
import org.apache.kafka.streams.processor.assignment.TaskAssignmentUtils;
import org.apache.kafka.streams.processor.assignment.TaskAssignor;
import org.apache.kafka.streams.processor.assignment.TaskInfo;
import org.apache.kafka.streams.processor.assignment.TaskTopicPartition;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.Test;

/**
 * The role assignor on the service's task layout (sub-topology 0 routes the samples, 1 learns the models, 2 routes the
 * bandits' inputs, 3 learns the bandits): each task active in exactly one client, of its role whenever that role has a
 * client, whatever the clients, their previous tasks, the partitions and the standbys.
 */
class RoleTaskAssignorTest {

  private static final String BANDIT_ROUTING = "app-bandit-routing-repartition";
  private static final Set<String> BANDIT_TOPICS = Set.of("dp.contexts", "dp.contexts.decided", "dp.rewards",
      BANDIT_ROUTING);

  @Property(tries = 300, seed = "4114")
  void everyTaskRunsOnceInAClientOfItsRole(@ForAll @IntRange(min = 0, max = 3) int modelClients,
      @ForAll @IntRange(min = 0, max = 3) int banditClients, @ForAll @IntRange(min = 0, max = 2) int untagged,
      @ForAll @IntRange(min = 1, max = 8) int routingPartitions, @ForAll @IntRange(min = 0, max = 1) int standbys,
      @ForAll long seed) {
    if (modelClients + banditClients + untagged == 0) {
      return;
    }
    java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
    Map<TaskId, TaskInfo> tasks = tasks(3, routingPartitions);
    Map<ProcessId, KafkaStreamsState> clients = new HashMap<>();
    addClients(clients, modelClients, "models", tasks, random);
    addClients(clients, banditClients, "bandits", tasks, random);
    addClients(clients, untagged, null, tasks, random);
    ApplicationState state = new State(clients, tasks, standbys);

    TaskAssignor.TaskAssignment assignment = assignor().assign(state);

    assertEquals(TaskAssignor.AssignmentError.NONE, TaskAssignmentUtils.validateTaskAssignment(state, assignment));
    assertEquals(clients.keySet(), assignment.assignment().stream().map(KafkaStreamsAssignment::processId)
        .collect(java.util.stream.Collectors.toSet()), "every client gets an assignment, possibly empty");
    for (TaskId task : tasks.keySet()) {
      List<ProcessId> owners = owners(assignment, task, AssignedTask.Type.ACTIVE);
      assertEquals(1, owners.size(), task + " active in " + owners);
      String role = task.subtopology() >= 2 ? "bandits" : "models";
      boolean roleHasClients = clients.values().stream().anyMatch(c -> role.equals(c.clientTags().get(LearningRole.TAG)));
      if (roleHasClients) {
        assertEquals(role, clients.get(owners.get(0)).clientTags().get(LearningRole.TAG), task + " runs in " + role);
      }
      assertTrue(!owners(assignment, task, AssignedTask.Type.STANDBY).contains(owners.get(0)),
          task + " has a standby where it is active");
    }
  }

  @Test
  void aBanditTaskIsRecognisedByItsSourceTopics() {
    RoleTaskAssignor assignor = assignor();
    Map<TaskId, TaskInfo> tasks = tasks(3, 2);
    tasks.forEach((id, task) -> assertEquals(id.subtopology() >= 2 ? LearningRole.BANDITS : LearningRole.MODELS,
        assignor.roleOf(task), id.toString()));
  }

  @Test
  void refusesAConfigurationWithoutTheBanditsTopics() {
    assertThrows(IllegalArgumentException.class, () -> new RoleTaskAssignor().configure(Map.of()));
  }

  private static RoleTaskAssignor assignor() {
    RoleTaskAssignor assignor = new RoleTaskAssignor();
    assignor.configure(Map.of(RoleTaskAssignor.BANDIT_TOPICS_CONFIG, String.join(",", BANDIT_TOPICS)));
    return assignor;
  }

  private static List<ProcessId> owners(TaskAssignor.TaskAssignment assignment, TaskId task, AssignedTask.Type type) {
    return assignment.assignment().stream()
        .filter(client -> client.tasks().containsKey(task) && client.tasks().get(task).type() == type)
        .map(KafkaStreamsAssignment::processId).toList();
  }

  /** The service's layout: sources per sub-topology, input partitions for the routers, routing partitions after. */
  private static Map<TaskId, TaskInfo> tasks(int inputPartitions, int routingPartitions) {
    Map<TaskId, TaskInfo> tasks = new HashMap<>();
    for (int p = 0; p < inputPartitions; p++) {
      tasks.put(new TaskId(0, p), new Task(new TaskId(0, p), Set.of("dp.samples"), false));
      tasks.put(new TaskId(2, p), new Task(new TaskId(2, p), Set.of("dp.contexts.decided", "dp.rewards"), false));
    }
    for (int p = 0; p < routingPartitions; p++) {
      tasks.put(new TaskId(1, p), new Task(new TaskId(1, p), Set.of("app-model-routing-repartition"), true));
      tasks.put(new TaskId(3, p), new Task(new TaskId(3, p), Set.of(BANDIT_ROUTING), true));
    }
    return tasks;
  }

  private static void addClients(Map<ProcessId, KafkaStreamsState> clients, int count, String role,
      Map<TaskId, TaskInfo> tasks, java.util.SplittableRandom random) {
    List<TaskId> all = new ArrayList<>(new TreeSet<>(tasks.keySet()));
    for (int i = 0; i < count; i++) {
      ProcessId id = new ProcessId(new UUID(random.nextLong(), random.nextLong()));
      SortedSet<TaskId> previous = new TreeSet<>();
      all.stream().filter(task -> random.nextInt(4) == 0).forEach(previous::add);
      clients.put(id, new Client(id, role == null ? Map.of() : Map.of(LearningRole.TAG, role), previous,
          1 + random.nextInt(2)));
    }
  }

  private record Task(TaskId id, Set<String> sources, boolean isStateful) implements TaskInfo {
    @Override
    public Set<String> stateStoreNames() {
      return isStateful ? Set.of("store") : Set.of();
    }

    @Override
    public Set<TaskTopicPartition> topicPartitions() {
      Set<TaskTopicPartition> partitions = new java.util.HashSet<>();
      for (String topic : sources) {
        partitions.add(new Partition(new TopicPartition(topic, id.partition())));
      }
      return partitions;
    }
  }

  private record Partition(TopicPartition topicPartition) implements TaskTopicPartition {
    @Override
    public boolean isSource() {
      return true;
    }

    @Override
    public boolean isChangelog() {
      return false;
    }

    @Override
    public Optional<Set<String>> rackIds() {
      return Optional.empty();
    }
  }

  private record Client(ProcessId processId, Map<String, String> clientTags, SortedSet<TaskId> previousActiveTasks,
      int numProcessingThreads) implements KafkaStreamsState {
    @Override
    public SortedSet<String> consumerClientIds() {
      SortedSet<String> ids = new TreeSet<>();
      for (int t = 0; t < numProcessingThreads; t++) {
        ids.add(processId + "-" + t);
      }
      return ids;
    }

    @Override
    public SortedSet<TaskId> previousStandbyTasks() {
      return new TreeSet<>();
    }

    @Override
    public long lagFor(TaskId task) {
      return 0;
    }

    @Override
    public SortedSet<TaskId> prevTasksByLag(String consumerClientId) {
      return new TreeSet<>(previousActiveTasks);
    }

    @Override
    public Map<TaskId, Long> statefulTasksToLagSums() {
      return Map.of();
    }

    @Override
    public Optional<HostInfo> hostInfo() {
      return Optional.empty();
    }

    @Override
    public Optional<String> rackId() {
      return Optional.empty();
    }
  }

  private record State(Map<ProcessId, KafkaStreamsState> clients, Map<TaskId, TaskInfo> allTasks, int standbys)
      implements ApplicationState {
    @Override
    public Map<ProcessId, KafkaStreamsState> kafkaStreamsStates(boolean computeTaskLags) {
      return clients;
    }

    @Override
    public AssignmentConfigs assignmentConfigs() {
      return new AssignmentConfigs(10_000L, 2, standbys, 600_000L, List.of());
    }
  }
}
