package org.dpstream.bench.bandite2e;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * A stand-in for the decision API on localhost: every request, decision or reward, is answered 200 with the same
 * decision (arm 0), and nothing is decided, written or learnt. It frames HTTP as the API does (Netty's request
 * decoder, the answers of one read flushed together, epoll when Netty's native library loads), so a load against it
 * costs what the HTTP exchange itself costs: the client warms its own code up against it ({@link ClientWarmUp}), and
 * {@code bandit-e2e --stand-in} measures with it how many decisions per second this machine can exchange at all,
 * the ceiling of any service behind the same API.
 */
final class StandInApi implements AutoCloseable {

  private static final byte[] ANSWER = answer(
      "{\"requestId\":\"stand-in\",\"arm\":0,\"modelStep\":0,\"phase\":\"WARM_UP\"}");

  private final EventLoopGroup loops;
  private final Channel listener;

  private StandInApi(EventLoopGroup loops, Channel listener) {
    this.loops = loops;
    this.listener = listener;
  }

  /** Serves on a free port of the loopback interface with {@code threads} event loops. */
  static StandInApi start(int threads) throws InterruptedException {
    boolean epoll = Epoll.isAvailable();
    IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    Class<? extends ServerChannel> channel = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    EventLoopGroup loops =
        new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory("bandit-e2e-stand-in", true), io);
    try {
      Channel listener = new ServerBootstrap().group(loops).channel(channel)
          .childOption(ChannelOption.TCP_NODELAY, true)
          .childHandler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel connection) {
              connection.pipeline().addLast(new HttpRequestDecoder(), new ArmZero());
            }
          })
          .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
      return new StandInApi(loops, listener);
    } catch (InterruptedException | RuntimeException e) {
      loops.shutdownGracefully(0, 0, TimeUnit.SECONDS);
      throw e;
    }
  }

  int port() {
    return ((InetSocketAddress) listener.localAddress()).getPort();
  }

  @Override
  public void close() {
    listener.close().syncUninterruptibly();
    loops.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
  }

  /** The whole answer, head and body, as the API would write it (its head as {@code HttpAnswerHead}'s). */
  private static byte[] answer(String json) {
    return ("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: " + json.length() + "\r\n\r\n"
        + json).getBytes(StandardCharsets.US_ASCII);
  }

  /** Answers each request once its body has been read; flushes the answers of one read together. */
  private static final class ArmZero extends ChannelInboundHandlerAdapter {
    private boolean unflushed;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
      try {
        if (message instanceof LastHttpContent) {
          ctx.write(ctx.alloc().buffer(ANSWER.length).writeBytes(ANSWER), ctx.voidPromise());
          unflushed = true;
        }
      } finally {
        ReferenceCountUtil.release(message);
      }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      if (unflushed) {
        unflushed = false;
        ctx.flush();
      }
    }
  }
}
