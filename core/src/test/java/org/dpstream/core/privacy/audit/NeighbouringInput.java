package org.dpstream.core.privacy.audit;

/** Which of the two neighbouring inputs of an audit a run used. */
public enum NeighbouringInput {
  /** The original input D ({@code neighbour == false} in {@link AuditedMechanism#run}). */
  ORIGINAL("D"),
  /** The neighbouring input D' ({@code neighbour == true} in {@link AuditedMechanism#run}). */
  NEIGHBOUR("D'");

  private final String symbol;

  NeighbouringInput(String symbol) {
    this.symbol = symbol;
  }

  /** The other input of the pair. */
  public NeighbouringInput other() {
    return this == ORIGINAL ? NEIGHBOUR : ORIGINAL;
  }

  /** {@code D} or {@code D'}, as in the audit's explanation. */
  public String symbol() {
    return symbol;
  }
}
