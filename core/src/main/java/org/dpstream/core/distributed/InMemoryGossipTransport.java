package org.dpstream.core.distributed;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The in-process transport of Mode 1: a mailbox of the current round. The simulation lets every node send
 * before any node receives (a synchronous round, as eq. (5) mixes the messages of round t), so a missing
 * message is a protocol error and {@link #receive} fails instead of waiting.
 *
 * <p>Recipients are not needed: whoever receives names the senders it expects. Keeps only the latest round: sending for a newer round discards the older messages. Not thread-safe.
 */
public final class InMemoryGossipTransport implements GossipTransport {

  private final Map<Integer, double[]> mailbox = new HashMap<>();
  private long mailboxRound = Long.MIN_VALUE;

  @Override
  public void send(int fromNode, long round, Set<Integer> recipients, double[] message) {
    if (round < mailboxRound) {
      throw new IllegalStateException("message of past round " + round + " after round " + mailboxRound);
    }
    if (round > mailboxRound) {
      mailbox.clear();
      mailboxRound = round;
    }
    if (mailbox.putIfAbsent(fromNode, message.clone()) != null) {
      throw new IllegalStateException("node " + fromNode + " sent twice in round " + round);
    }
  }

  @Override
  public Map<Integer, double[]> receive(int node, long round, Set<Integer> expectedFrom) {
    Map<Integer, double[]> received = new HashMap<>();
    for (int sender : expectedFrom) {
      double[] message = round == mailboxRound ? mailbox.get(sender) : null;
      if (message == null) {
        throw new IllegalStateException(
            "node " + node + " expected a message of round " + round + " from node " + sender);
      }
      received.put(sender, message.clone());
    }
    return received;
  }
}
