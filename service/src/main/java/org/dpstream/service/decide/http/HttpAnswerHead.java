package org.dpstream.service.decide.http;

import io.netty.buffer.ByteBuf;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The status line and headers of the API's answers, written as bytes into a pooled buffer: the answers have
 * a fixed shape (a JSON body of known length), so no header map is built per answer. Always HTTP/1.1 (what a
 * server conforming to 1.1 answers an HTTP/1.0 request with, RFC 9110 section 6.2), with
 * {@code Connection: keep-alive} for an HTTP/1.0 client that asked to keep the connection and
 * {@code Connection: close} when the server closes it after the answer.
 */
final class HttpAnswerHead {

  /** What the answer says about the connection. */
  enum Connection {
    /** HTTP/1.1 keeps the connection by default: nothing to say. */
    DEFAULT(""),
    /** An HTTP/1.0 client that sent {@code Connection: keep-alive}. */
    KEEP_ALIVE("connection: keep-alive\r\n"),
    CLOSE("connection: close\r\n");

    private final byte[] header;

    Connection(String header) {
      this.header = JsonAnswers.ascii(header);
    }
  }

  static final byte[] CONTINUE = JsonAnswers.ascii("HTTP/1.1 100 Continue\r\n\r\n");
  private static final byte[] CONTENT = JsonAnswers.ascii("content-type: application/json\r\ncontent-length: ");
  private static final byte[] ALLOW_POST = JsonAnswers.ascii("allow: POST\r\n");
  private static final byte[] BEARER_CHALLENGE = JsonAnswers.ascii("www-authenticate: Bearer realm=\"dpstream\"\r\n");
  private static final byte[] CRLF = JsonAnswers.ascii("\r\n");
  private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US)
      .withZone(ZoneOffset.UTC);

  /** The Date header of the current second (RFC 9110: an origin server with a clock sends it), made once a second. */
  private record DateHeader(long second, byte[] bytes) {}

  private static volatile DateHeader date = new DateHeader(-1, new byte[0]);

  private HttpAnswerHead() {}

  /**
   * Writes the head of an answer of {@code status} with a JSON body of {@code contentLength} bytes.
   *
   * @param bearerChallenge a 401 names the Bearer scheme ({@code WWW-Authenticate}, RFC 6750)
   */
  static void write(ByteBuf out, int status, int contentLength, Connection connection, boolean bearerChallenge) {
    out.writeBytes(statusLine(status));
    out.writeBytes(dateHeader());
    out.writeBytes(CONTENT);
    JsonAnswers.decimal(out, contentLength);
    out.writeBytes(CRLF);
    if (status == 405) {
      out.writeBytes(ALLOW_POST);
    }
    if (status == 401 && bearerChallenge) {
      out.writeBytes(BEARER_CHALLENGE);
    }
    out.writeBytes(connection.header);
    out.writeBytes(CRLF);
  }

  private static final byte[] OK = JsonAnswers.ascii("HTTP/1.1 200 OK\r\n");
  private static final byte[] BAD_REQUEST = JsonAnswers.ascii("HTTP/1.1 400 Bad Request\r\n");
  private static final byte[] UNAUTHORIZED = JsonAnswers.ascii("HTTP/1.1 401 Unauthorized\r\n");
  private static final byte[] NOT_FOUND = JsonAnswers.ascii("HTTP/1.1 404 Not Found\r\n");
  private static final byte[] METHOD_NOT_ALLOWED = JsonAnswers.ascii("HTTP/1.1 405 Method Not Allowed\r\n");
  private static final byte[] CONFLICT = JsonAnswers.ascii("HTTP/1.1 409 Conflict\r\n");
  private static final byte[] INTERNAL_ERROR = JsonAnswers.ascii("HTTP/1.1 500 Internal Server Error\r\n");
  private static final byte[] UNAVAILABLE = JsonAnswers.ascii("HTTP/1.1 503 Service Unavailable\r\n");

  private static byte[] statusLine(int status) {
    return switch (status) {
      case 200 -> OK;
      case 400 -> BAD_REQUEST;
      case 401 -> UNAUTHORIZED;
      case 404 -> NOT_FOUND;
      case 405 -> METHOD_NOT_ALLOWED;
      case 409 -> CONFLICT;
      case 500 -> INTERNAL_ERROR;
      case 503 -> UNAVAILABLE;
      default -> throw new IllegalArgumentException("the API does not answer " + status);
    };
  }

  private static byte[] dateHeader() {
    long now = System.currentTimeMillis() / 1000;
    DateHeader current = date;
    if (current.second() != now) {
      current = new DateHeader(now, JsonAnswers.ascii("date: " + HTTP_DATE.format(Instant.ofEpochSecond(now)) + "\r\n"));
      date = current;
    }
    return current.bytes();
  }
}
