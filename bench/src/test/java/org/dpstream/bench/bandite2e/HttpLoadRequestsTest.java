package org.dpstream.bench.bandite2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequestDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import java.util.stream.DoubleStream;
import org.junit.jupiter.api.Test;

/** The bench client's wire format: {@link JsonPosts}' requests and {@link HttpLoad#armOf}. */
class HttpLoadRequestsTest {

  private static final double[] AWKWARD = {
      0.0, -0.0, 1.0, -1.0, 0.1, 1.0 / 3, 2.0 / 3, 1e-3, 9.999999999999999e-4, 1e7, 9999999.999999998, 1.0E-5,
      123456789.123, Double.MIN_VALUE, Double.MIN_NORMAL, Double.MAX_VALUE, -Double.MAX_VALUE, 4.35, 0.3,
      2.2250738585072014E-308, 5e-324, 1.7976931348623157E308, 100.0, 1e21, 1e-21};

  private final JsonPosts posts = new JsonPosts("bench-bandit", "t0ken");

  @Test
  void aDecisionIsAPostOfItsRequestIdAndContextWithEachNumberAsDoubleToString() {
    double[] context = AWKWARD.clone();

    FullHttpRequest request = decoded(posts.decide(ByteBufAllocator.DEFAULT, 41, context));

    assertEquals(HttpMethod.POST, request.method());
    assertEquals("/v1/bandits/bench-bandit/decide", request.uri());
    assertEquals("application/json", request.headers().get(HttpHeaderNames.CONTENT_TYPE));
    assertEquals("Bearer t0ken", request.headers().get(HttpHeaderNames.AUTHORIZATION), "it authenticates");
    String body = request.content().toString(StandardCharsets.UTF_8);
    assertEquals("{\"requestId\":\"41\",\"context\":["
        + DoubleStream.of(context).mapToObj(Double::toString).collect(Collectors.joining(",")) + "]}", body);
    assertEachNumberReadsBackBitForBit(context, body);
    request.release();
  }

  @Test
  void anyDoubleRoundTripsThroughADecisionBody() {
    SplittableRandom random = new SplittableRandom(11);
    double[] context = new double[2000];
    for (int j = 0; j < context.length; j++) {
      context[j] = j % 2 == 0 ? random.nextGaussian() : Double.longBitsToDouble(random.nextLong() & ~(0x7ffL << 52)
          | (long) random.nextInt(0x7ff) << 52);
    }

    FullHttpRequest request = decoded(posts.decide(ByteBufAllocator.DEFAULT, 0, context));

    assertEachNumberReadsBackBitForBit(context, request.content().toString(StandardCharsets.UTF_8));
    request.release();
  }

  /** The body's context array has one number per coordinate, each parsing back to the same bits. */
  private static void assertEachNumberReadsBackBitForBit(double[] context, String body) {
    String[] numbers = body.substring(body.indexOf('[') + 1, body.indexOf(']')).split(",");
    assertEquals(context.length, numbers.length);
    for (int j = 0; j < context.length; j++) {
      assertEquals(Double.doubleToRawLongBits(context[j]), Double.doubleToRawLongBits(Double.parseDouble(numbers[j])),
          numbers[j]);
    }
  }

  @Test
  void theContentLengthIsTheBodysAcrossDigitCounts() {
    // Bodies from 30 bytes (no context) to about 20,000: Content-Lengths of 2 to 5 digits, across each boundary.
    String number = Double.toString(0.12345678901234568);
    for (int d = 0; d <= 1000; d += d < 8 ? 1 : 3) {
      double[] context = new double[d];
      Arrays.fill(context, 0.12345678901234568);
      FullHttpRequest request = decoded(posts.decide(ByteBufAllocator.DEFAULT, d, context));
      String body = request.content().toString(StandardCharsets.UTF_8);
      assertEquals(body.length(), Integer.parseInt(request.headers().get(HttpHeaderNames.CONTENT_LENGTH)));
      assertEquals(d, body.split(number, -1).length - 1, body);
      request.release();
    }
  }

  @Test
  void aRewardIsAPostOfItsRequestIdAndReward() {
    for (double reward : AWKWARD) {
      FullHttpRequest request = decoded(posts.reward(ByteBufAllocator.DEFAULT, 1234567, reward));

      assertEquals("/v1/bandits/bench-bandit/reward", request.uri());
      assertEquals("{\"requestId\":\"1234567\",\"reward\":" + reward + "}",
          request.content().toString(StandardCharsets.UTF_8));
      request.release();
    }
  }

  @Test
  void theArmIsReadFromTheAnswersBytes() {
    assertEquals(3, HttpLoad.armOf(ascii("{\"requestId\":\"1\",\"arm\":3,\"modelStep\":0,\"phase\":\"GREEDY\"}")));
    assertEquals(12, HttpLoad.armOf(ascii("{\"requestId\":\"arm\",\"arm\": 12}")));
    assertEquals(0, HttpLoad.armOf(ascii("{\"arm\":0}")));
    assertEquals(-1, HttpLoad.armOf(ascii("{\"requestId\":\"1\",\"modelStep\":0}")));
    assertEquals(-1, HttpLoad.armOf(ascii("{\"arm\":-1}")));
    assertEquals(-1, HttpLoad.armOf(ascii("{\"arm\":\"2\"}")));
    assertEquals(-1, HttpLoad.armOf(ascii("{\"arm\":")));
    assertEquals(-1, HttpLoad.armOf(ascii("{\"arm\":99999999999}")));
  }

  private static ByteBuf ascii(String text) {
    return Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII);
  }

  /** The request as an HTTP server decodes it (the whole buffer must be exactly one request). */
  private static FullHttpRequest decoded(ByteBuf encoded) {
    EmbeddedChannel server = new EmbeddedChannel(new HttpRequestDecoder(), new HttpObjectAggregator(1 << 20));
    server.writeInbound(encoded);
    FullHttpRequest request = server.readInbound();
    assertNull(server.readInbound(), "one request, nothing left over");
    assertTrue(request.decoderResult().isSuccess(), String.valueOf(request.decoderResult()));
    server.finishAndReleaseAll();
    return request;
  }
}
