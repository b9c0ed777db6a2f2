package org.dpstream.bandit;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Neighbouring sequences of bandit rounds for the sensitivity recorders: one user's context and reward replaced
 * (replace-one), coordinates and rewards from ordinary values to +-Double.MAX_VALUE. A round is its context followed
 * by its reward.
 */
public record NeighbouringRounds(List<double[]> rounds, List<double[]> neighbour, int replaced) {

  public static Arbitrary<NeighbouringRounds> of(int dimension, int count) {
    Arbitrary<Double> value = Arbitraries.frequencyOf(Tuple.of(4, Arbitraries.doubles().between(-2, 2)),
        Tuple.of(1, Arbitraries.of(Double.MAX_VALUE, -Double.MAX_VALUE, 1.0, -1.0, 0.0)));
    Arbitrary<double[]> round = value.array(double[].class).ofSize(dimension + 1);
    return Combinators.combine(round.list().ofSize(count), round, Arbitraries.integers().between(0, count - 1))
        .as((stream, other, at) -> {
          List<double[]> neighbour = new ArrayList<>(stream);
          neighbour.set(at, other);
          return new NeighbouringRounds(stream, neighbour, at);
        });
  }
}
