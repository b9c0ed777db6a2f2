package org.dpstream.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * Finds loopback ports that are free at the moment of asking.
 *
 * <p>The controller's port must be known before the broker starts (it is part of the quorum
 * configuration written by the storage formatter), so the OS cannot simply be asked for port 0 at
 * bind time. Another process may take a probed port before Kafka binds it; {@link EmbeddedKafka}
 * retries with fresh ports when that happens.
 */
final class FreePorts {

  private FreePorts() {}

  /** {@code count} distinct ports that were free on 127.0.0.1 when probed. */
  static int[] probe(int count) {
    return probe(count, 0);
  }

  /**
   * Like {@link #probe(int)}, but the first port is {@code firstPort} unless that is 0: it must be
   * free now, and the others are chosen apart from it.
   *
   * @throws EmbeddedKafka.PortInUseException if {@code firstPort} cannot be bound
   */
  static int[] probe(int count, int firstPort) {
    if (firstPort == 0) {
      return probeFree(count);
    }
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), firstPort), 1);
      // Probed while firstPort is held, so none of the others can be it.
      int[] ports = new int[count];
      ports[0] = firstPort;
      System.arraycopy(probeFree(count - 1), 0, ports, 1, count - 1);
      return ports;
    } catch (IOException e) {
      throw new EmbeddedKafka.PortInUseException(firstPort, e);
    }
  }

  private static int[] probeFree(int count) {
    ServerSocket[] sockets = new ServerSocket[count];
    try {
      // Hold all sockets open until every port is chosen, so the OS cannot hand out one port twice.
      int[] ports = new int[count];
      for (int i = 0; i < count; i++) {
        sockets[i] = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        sockets[i].setReuseAddress(true);
        ports[i] = sockets[i].getLocalPort();
      }
      return ports;
    } catch (IOException e) {
      throw new UncheckedIOException("could not probe a free loopback port", e);
    } finally {
      for (ServerSocket socket : sockets) {
        closeQuietly(socket);
      }
    }
  }

  private static void closeQuietly(ServerSocket socket) {
    if (socket == null) {
      return;
    }
    try {
      socket.close();
    } catch (IOException ignored) {
      // The port is only probed; a failed close cannot affect the broker that binds it next.
    }
  }
}
