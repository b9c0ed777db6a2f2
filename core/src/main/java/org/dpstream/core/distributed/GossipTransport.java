package org.dpstream.core.distributed;

import java.util.Map;
import java.util.Set;

/**
 * How nodes exchange their round messages z_i + a_t zeta_i. {@link DdaNode} is written against this
 * interface only, so the same node runs in-process ({@link InMemoryGossipTransport}, Mode 1) or over a
 * message bus (Mode 2).
 *
 * <p>Contract: a node sends at most one message per round; {@link #receive} returns exactly the messages of
 * round {@code round} from every node in {@code expectedFrom} (blocking or failing if one is missing, at the
 * implementation's choice, never silently dropping it: a missing message would break double stochasticity
 * and with it the consensus invariant). Messages are handed over as copies; the sender may reuse its array.
 */
public interface GossipTransport {

  /** Publishes {@code fromNode}'s message of {@code round} to whoever expects it. */
  void send(int fromNode, long round, double[] message);

  /**
   * The messages of {@code round} from the nodes in {@code expectedFrom}, keyed by sender.
   *
   * @throws IllegalStateException if the implementation cannot deliver one of them
   */
  Map<Integer, double[]> receive(int node, long round, Set<Integer> expectedFrom);
}
