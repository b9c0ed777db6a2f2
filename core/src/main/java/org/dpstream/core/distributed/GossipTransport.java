package org.dpstream.core.distributed;

import java.util.Map;
import java.util.Set;

/**
 * How nodes exchange their round messages z_i + a_t zeta_i. {@link DdaNode} is written against this
 * interface only, so the same node runs in-process ({@link InMemoryGossipTransport}, Mode 1) or over a
 * message bus (Mode 2).
 *
 * <p>Contract: a node sends at most one message per round (a node resumed from a checkpoint may send the same
 * round again, with bit-identical content, since all its randomness is keyed); {@link #receive} returns exactly the messages of
 * round {@code round} from every node in {@code expectedFrom} (blocking or failing if one is missing, at the
 * implementation's choice, never silently dropping it: a missing message would break double stochasticity
 * and with it the consensus invariant). Messages are handed over as copies; the sender may reuse its array.
 */
public interface GossipTransport {

  /**
   * Publishes {@code fromNode}'s message of {@code round} to {@code recipients}, its neighbours N_i^(t) in the
   * round's gossip (W is symmetric, so they are exactly the nodes that expect it). A transport may deliver it
   * to the recipients only; nobody else needs it.
   */
  void send(int fromNode, long round, Set<Integer> recipients, double[] message);

  /**
   * The messages of {@code round} from the nodes in {@code expectedFrom}, keyed by sender.
   *
   * @throws IllegalStateException if the implementation cannot deliver one of them
   */
  Map<Integer, double[]> receive(int node, long round, Set<Integer> expectedFrom);
}
