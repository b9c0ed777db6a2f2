package org.dpstream.service.decide.http;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A blocking HTTP/1.1 client on one persistent connection to localhost, just enough to POST JSON and read a
 * Content-Length response: the deciders' warm-up talks to their own API with it, and the bench's load
 * generator uses it because its own cost stays small next to the server it measures (the JDK's HttpClient
 * spends more CPU per request than the server on two shared cores).
 */
public final class MiniHttpClient implements Closeable {

  /** A response's status and body. */
  public record Response(int status, String body) {}

  private final Socket socket;
  private final OutputStream out;
  private final InputStream in;
  private final ByteArrayOutputStream request = new ByteArrayOutputStream(1024);
  private final String authorizationHeader;

  /** Connects to {@code port} on localhost. */
  public MiniHttpClient(int port) throws IOException {
    this(port, null);
  }

  /** Connects to {@code port} on localhost; every request carries {@code authorization} (unless null). */
  public MiniHttpClient(int port, String authorization) throws IOException {
    authorizationHeader = authorization == null ? "" : "Authorization: " + authorization + "\r\n";
    socket = new Socket();
    socket.setTcpNoDelay(true);
    socket.connect(new InetSocketAddress("localhost", port));
    out = socket.getOutputStream();
    in = new BufferedInputStream(socket.getInputStream(), 8192);
  }

  /** POSTs {@code json} to {@code path} and reads the whole response. */
  public Response post(String path, byte[] json) throws IOException {
    request.reset();
    request.writeBytes(("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        + authorizationHeader + "Content-Length: " + json.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    request.writeBytes(json);
    request.writeTo(out);
    out.flush();
    String statusLine = line();
    int status = Integer.parseInt(statusLine.substring(9, 12));
    int length = 0;
    for (String header = line(); !header.isEmpty(); header = line()) {
      if (header.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
        length = Integer.parseInt(header.substring(15).trim());
      }
    }
    byte[] body = in.readNBytes(length);
    return new Response(status, new String(body, StandardCharsets.UTF_8));
  }

  private String line() throws IOException {
    StringBuilder line = new StringBuilder(64);
    int c;
    while ((c = in.read()) != '\n') {
      if (c < 0) {
        throw new IOException("connection closed");
      }
      if (c != '\r') {
        line.append((char) c);
      }
    }
    return line.toString();
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
