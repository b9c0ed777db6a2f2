package org.dpstream.app.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
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
