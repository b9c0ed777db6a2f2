package org.dpstream.bench.bandit;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dpstream.bandit.BanditPolicy;
import org.dpstream.bandit.env.BanditEnvironment;
import org.dpstream.bandit.linear.DpLinearPolicy;
import org.dpstream.bandit.linear.DpLinearSpec;
import org.dpstream.bench.common.ExperimentKeys;
import org.dpstream.bench.common.Formats;
import org.dpstream.bench.common.Stats;
import org.dpstream.bench.common.TextTable;
import org.dpstream.options.ProgressBar;

/**
 * {@code bandit --max-contributions k1,k2,...}: what person-level privacy costs DP-Linear. The stream is T rounds of
 * T / k persons who send exactly k rounds each (round t is person floor(t / k)'s), so the service's bound drops no
 * round and the table isolates the accounting. For each k and seed, on the same environment stream: DP-Linear
 * accounted for k rounds of one person at the person-level (epsilon, delta) ({@link DpLinearSpec#withParticipations});
 * and the naive bound, DP-Linear at event level with (epsilon / k, delta / (k e^((k - 1) epsilon / k))), which group
 * privacy turns into the same (epsilon, delta) per person (Dwork and Roth 2014, "The algorithmic foundations of
 * differential privacy", Theorem 2.2 and its approximate form); and uniform random arms, the scale of regret.
 */
final class PersonLevelCost {

  static final String FILE_NAME = "person_level.txt";

  private PersonLevelCost() {}

  /** The event-level delta whose group-privacy bound for k rounds is {@code delta} at event epsilon / k. */
  static double groupDelta(double epsilon, double delta, int k) {
    return delta / (k * Math.exp((k - 1) * epsilon / k));
  }

  static int run(List<Integer> maxContributions, BanditEnvironments environments, int d, int arms, int sparsity,
      int horizon, int seeds, double epsilon, double delta, BanditPolicies.Options options, Path out,
      PrintWriter stdout, PrintWriter stderr) throws IOException {
    ProgressBar progress = ProgressBar.forStream(stderr, seeds * (1 + 2 * maxContributions.size()));
    double[][] person = new double[maxContributions.size()][seeds];
    double[][] group = new double[maxContributions.size()][seeds];
    String[] personMechanism = new String[maxContributions.size()];
    String[] groupMechanism = new String[maxContributions.size()];
    for (int s = 0; s < seeds; s++) {
      long seed = s + 1;
      BanditRunSpec randomRun = new BanditRunSpec(BanditAlgorithm.RANDOM, environments.name(), d, arms, horizon, epsilon,
          delta, seed);
      BanditEnvironment randomEnvironment = environments.create(d, arms, sparsity, seed);
      double random = BanditRunner.run(randomRun, randomEnvironment,
          BanditPolicies.create(randomRun, randomEnvironment.bounds(), ExperimentKeys.forSeed(seed), options))
          .cumulativeRegret();
      progress.advance(randomRun.label());
      for (int i = 0; i < maxContributions.size(); i++) {
        int k = maxContributions.get(i);
        BanditRunSpec personRun = new BanditRunSpec(BanditAlgorithm.DPLINEAR, environments.name(), d, arms, horizon,
            epsilon, delta, seed);
        BanditEnvironment environment = environments.create(d, arms, sparsity, seed);
        DpLinearPolicy perPerson = DpLinearPolicy.start(DpLinearFactory.spec(personRun, environment.bounds(),
            options.linearAccountant(), options.linearReleases()).withParticipations(k), ExperimentKeys.forSeed(seed));
        person[i][s] = BanditRunner.run(personRun, environment, perPerson).cumulativeRegret() / random;
        personMechanism[i] = perPerson.mechanism();
        progress.advance("dplinear per person k=" + k + " seed=" + seed);

        BanditRunSpec groupRun = new BanditRunSpec(BanditAlgorithm.DPLINEAR, environments.name(), d, arms, horizon,
            epsilon / k, groupDelta(epsilon, delta, k), seed);
        environment = environments.create(d, arms, sparsity, seed);
        BanditPolicy byGroup = DpLinearFactory.create(groupRun, environment.bounds(), ExperimentKeys.forSeed(seed),
            options.linearAccountant(), options.linearReleases());
        group[i][s] = BanditRunner.run(groupRun, environment, byGroup).cumulativeRegret() / random;
        groupMechanism[i] = BanditPolicies.describe(byGroup);
        progress.advance("dplinear group privacy k=" + k + " seed=" + seed);
      }
    }
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"k", "persons", "per person: regret / random", "std", "group privacy: regret / random",
        "std", "group privacy: event (epsilon, delta)"});
    for (int i = 0; i < maxContributions.size(); i++) {
      int k = maxContributions.get(i);
      rows.add(new String[] {Integer.toString(k), Integer.toString(horizon / k), Formats.brief(Stats.mean(person[i])),
          seeds > 1 ? Formats.brief(Stats.std(person[i])) : "-", Formats.brief(Stats.mean(group[i])),
          seeds > 1 ? Formats.brief(Stats.std(group[i])) : "-",
          "(" + Formats.parameter(epsilon / k) + ", " + Formats.parameter(groupDelta(epsilon, delta, k)) + ")"});
    }
    StringBuilder summary = new StringBuilder();
    summary.append("DP-Linear, ").append(environments.name()).append(" d=").append(d).append(" K=").append(arms)
        .append(" T=").append(horizon).append(", person-level (epsilon, delta) = (").append(Formats.parameter(epsilon))
        .append(", ").append(Formats.parameter(delta)).append("), ").append(seeds).append(" seed(s)\n");
    summary.append(TextTable.align(rows, c -> c == 6)).append('\n');
    for (int i = 0; i < maxContributions.size(); i++) {
      summary.append("k=").append(maxContributions.get(i)).append(": per person ").append(personMechanism[i])
          .append("; group privacy ").append(groupMechanism[i]).append('\n');
    }
    summary.append("regret / random = DP-Linear's Regret(T) / uniform random arms' on the same stream, mean over seeds;"
        + " persons send exactly k rounds each, so no round is dropped.\n");
    Path file = Files.writeString(out.resolve(FILE_NAME), summary);
    stdout.println();
    stdout.print(summary);
    stdout.println("wrote " + file);
    stdout.flush();
    return 0;
  }
}
