package org.dpstream.bench.bandite2e;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Warms the HTTP client's own code before it measures anything. The client's JVM has just started: without this,
 * its first second of sending ran interpreted and was compiled under load, and requests were sent up to 138 ms
 * after their due time at its p99, which the bench counted as the service's latency. The warm-up offers a workload
 * of its own ({@value #REQUESTS} requests at {@value #RATE} requests/s, so that the open loop's pacing is compiled
 * too) to a stand-in API in the client's JVM that answers every request with arm 0. The service sees none of it.
 */
final class ClientWarmUp {

  static final int REQUESTS = 20_000;
  static final double RATE = 10_000;
  private static final byte[] ANSWER =
      "{\"requestId\":\"warm-up\",\"arm\":0,\"modelStep\":0,\"phase\":\"WARM_UP\"}".getBytes(StandardCharsets.UTF_8);

  private ClientWarmUp() {}

  /** Runs the warm-up with the real run's shape (dimension, arms, connections); returns its client line. */
  static String http(int dimension, int arms, long seed, int connections, int rewardConnections) throws Exception {
    EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("bandit-e2e-stand-in", true),
        NioIoHandler.newFactory());
    try {
      Channel server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
          .childHandler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel channel) {
              channel.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 20), new StandIn());
            }
          })
          .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
      int port = ((InetSocketAddress) server.localAddress()).getPort();
      return HttpLoad.run(new Workload(dimension, arms, REQUESTS, ~seed, RATE), port, "warm-up", connections,
          rewardConnections);
    } finally {
      group.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  /** Answers every request with the same decision, keeping the connection open. */
  private static final class StandIn extends SimpleChannelInboundHandler<FullHttpRequest> {
    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
      ByteBuf body = Unpooled.wrappedBuffer(ANSWER);
      FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, body);
      response.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
          .setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
      ctx.writeAndFlush(response);
    }
  }
}
