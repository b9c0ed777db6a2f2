package org.dpstream.core.privacy.factorization;

/**
 * Rigorous upper bounds for single floating-point operations on non-negative doubles.
 *
 * <p>Java rounds every {@code +, *, /, sqrt} to the nearest double, so the exact result lies strictly
 * between the neighbours of the computed one: if it lay above {@code nextUp(computed)}, that neighbour would
 * have been nearer. Hence {@code nextUp} of each computed result bounds the exact result from above, and a
 * chain of such operations on upper bounds of non-negative inputs (all monotone) yields an upper bound of
 * the exact chain, however long it is. This is what the column-norm sums over up to millions of terms need;
 * a fixed relative slack would not cover an error that grows with the number of terms.
 */
final class UpwardRounding {

  private UpwardRounding() {}

  static double sum(double a, double b) {
    return Math.nextUp(a + b);
  }

  static double product(double a, double b) {
    return Math.nextUp(a * b);
  }

  static double quotient(double dividend, double divisor) {
    return Math.nextUp(dividend / divisor);
  }

  static double sqrt(double a) {
    return Math.nextUp(Math.sqrt(a));
  }
}
