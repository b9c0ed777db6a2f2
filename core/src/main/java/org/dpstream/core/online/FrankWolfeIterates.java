package org.dpstream.core.online;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * theta_t and theta_{t-1} of a Frank-Wolfe run (theta_0 = theta_1 = 0), and the step
 * theta_{t+1} = theta_t + eta (v - theta_t). Buffers rotate, so a step allocates nothing.
 */
final class FrankWolfeIterates {

  private double[] current;
  private double[] previous;
  private double[] next;

  private FrankWolfeIterates(double[] current, double[] previous) {
    this.current = current;
    this.previous = previous;
    this.next = new double[current.length];
  }

  static FrankWolfeIterates atOrigin(int dimension) {
    return new FrankWolfeIterates(new double[dimension], new double[dimension]);
  }

  double[] current() {
    return current;
  }

  double[] previous() {
    return previous;
  }

  /** Moves towards a dense vertex v. */
  void stepTowards(double[] vertex, double eta) {
    for (int i = 0; i < next.length; i++) {
      next[i] = current[i] + eta * (vertex[i] - current[i]);
    }
    rotate();
  }

  /** Moves towards the vertex {@code value} e_coordinate (a vertex of the l1 ball). */
  void stepTowardsAxis(int coordinate, double value, double eta) {
    for (int i = 0; i < next.length; i++) {
      double vertex = i == coordinate ? value : 0;
      next[i] = current[i] + eta * (vertex - current[i]);
    }
    rotate();
  }

  private void rotate() {
    double[] recycled = previous;
    previous = current;
    current = next;
    next = recycled;
  }

  void writeTo(DataOutput out) throws IOException {
    StateCodec.writeVector(out, current);
    StateCodec.writeVector(out, previous);
  }

  static FrankWolfeIterates readFrom(DataInput in, int dimension) throws IOException {
    double[] current = StateCodec.readVector(in, dimension);
    double[] previous = StateCodec.readVector(in, dimension);
    return new FrankWolfeIterates(current, previous);
  }
}
