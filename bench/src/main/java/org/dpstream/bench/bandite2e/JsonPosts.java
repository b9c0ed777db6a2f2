package org.dpstream.bench.bandite2e;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;

/**
 * Encodes the bench's two POSTs, {@code /decide} and {@code /reward}, each as one pooled buffer holding the
 * whole request (head and JSON body), with no String per request: the body is appended to one reused
 * StringBuilder, whose {@code append(double)} writes {@link Double#toString(double)}'s digits (what the server
 * parses, and the bodies' bytes of the old client) without allocating, then copied into the buffer. Not
 * thread-safe: one per event loop. Each request carries the client's bearer token, as any client of the API must.
 */
final class JsonPosts {

  private static final byte[] END_OF_HEAD = {'\r', '\n', '\r', '\n'};

  private final byte[] decideHead;
  private final byte[] rewardHead;
  private final StringBuilder json = new StringBuilder(4096);

  /** POSTs to {@code banditId}'s API, authenticated with the bearer {@code token}. */
  JsonPosts(String banditId, String token) {
    decideHead = head("/v1/bandits/" + banditId + "/decide", token);
    rewardHead = head("/v1/bandits/" + banditId + "/reward", token);
  }

  private static byte[] head(String path, String token) {
    return ("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAuthorization: Bearer "
        + token + "\r\nContent-Length: ").getBytes(StandardCharsets.UTF_8);
  }

  /** {@code {"requestId":"<index>","context":[...]}}. */
  ByteBuf decide(ByteBufAllocator allocator, int index, double[] context) {
    json.setLength(0);
    json.append("{\"requestId\":\"").append(index).append("\",\"context\":[");
    for (int j = 0; j < context.length; j++) {
      if (j > 0) {
        json.append(',');
      }
      json.append(context[j]);
    }
    json.append("]}");
    return post(allocator, decideHead);
  }

  /** {@code {"requestId":"<index>","reward":<reward>}}. */
  ByteBuf reward(ByteBufAllocator allocator, int index, double reward) {
    json.setLength(0);
    json.append("{\"requestId\":\"").append(index).append("\",\"reward\":").append(reward).append('}');
    return post(allocator, rewardHead);
  }

  private ByteBuf post(ByteBufAllocator allocator, byte[] head) {
    int length = json.length();
    ByteBuf request = allocator.ioBuffer(head.length + 10 + END_OF_HEAD.length + length);
    request.writeBytes(head);
    writeDecimal(request, length);
    request.writeBytes(END_OF_HEAD);
    request.writeCharSequence(json, StandardCharsets.US_ASCII);
    return request;
  }

  /** Writes a non-negative int's decimal digits. */
  private static void writeDecimal(ByteBuf out, int value) {
    int divisor = 1;
    while (divisor <= value / 10) {
      divisor *= 10;
    }
    for (; divisor > 0; divisor /= 10) {
      out.writeByte('0' + value / divisor % 10);
    }
  }
}
