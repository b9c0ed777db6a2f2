package org.dpstream.service.decide.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
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
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.dpstream.service.decide.producer.DecisionService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The decision API, served with Netty (docs/bandit-decider.md, "HTTP API"; measured against the JDK's server it
 * replaced in docs/benchmarks.md):
 *
 * <ul>
 *   <li>{@code POST /v1/bandits/{id}/decide} {@code {"requestId": "...", "context": [...]}} answers 200
 *       {@code {"requestId": ..., "arm": k, "modelStep": n, "phase": "WARM_UP"|"GREEDY"}} once the decision
 *       is handed to the producer of the decision log and dp.decisions (not after their acknowledgement);
 *   <li>{@code POST /v1/bandits/{id}/reward} {@code {"requestId": "...", "reward": r}} answers 200
 *       {@code {"requestId": ...}} once the reward is handed to the producer, or queued behind its decision's
 *       write (it is written only after the decision's acknowledgement), not after its own acknowledgement.
 * </ul>
 *
 * Bad input: 400 with {@code {"error": CODE, "message": ...}} and nothing written (a body over 1 MiB:
 * {@code TOO_LARGE}; HTTP that cannot be decoded: {@code BAD_REQUEST}, and that connection is closed); an unknown
 * bandit or path 404; a request id already decided for another context 409; another method 405 (with
 * {@code Allow: POST}); a write that failed before anything was answered 503 (retry with the same request id:
 * same decision); a reward whose decision's log write had already failed 409 {@code DECISION_NOT_LOGGED};
 * anything unexpected 500, and the server goes on. Connections are kept alive (HTTP/1.1, or HTTP/1.0 with
 * {@code Connection: keep-alive}) until the client closes them or sends {@code Connection: close}; pipelined
 * requests are answered in order ({@link DecisionApiHandler}). The OpenAPI description is
 * docs/openapi/decisions.yaml.
 *
 * <p><b>Threads.</b> {@code threadCount} event-loop threads ({@code decider.httpThreads}) accept connections, read
 * requests, decide and write the answers: a decision is CPU work of some microseconds and handing its records to
 * the producer does not wait for the broker, so a hand-off to another pool would only add two thread wake-ups
 * per request. The exception is producer back-pressure: {@code KafkaProducer.send} blocks while the producer's
 * buffer is full or a topic's metadata is unknown, up to {@code max.block.ms}. The event loop then waits with it,
 * and the connections it serves are read again once the producer takes records or the send fails; a failed send
 * is answered 503 {@code NOT_WRITTEN}. No request is lost or answered out of order meanwhile, and no extra
 * thread would help: every decision needs the same producer.
 *
 * <p>Transport: Linux's epoll when Netty's native library loads, otherwise Java NIO (also with
 * {@code -Dio.netty.transport.noNative=true}).
 */
public final class DecisionHttpServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(DecisionHttpServer.class);
  public static final String PREFIX = "/v1/bandits/";
  /** Larger bodies are refused (400 TOO_LARGE); they are read to their end but not kept. */
  static final int MAX_BODY_BYTES = 1 << 20;
  /** Request line and headers: Netty's defaults (4 KiB line, 8 KiB of headers), over them 400 and closed. */
  private static final HttpDecoderConfig DECODER = new HttpDecoderConfig();
  /**
   * A connection from which nothing was read for this long is closed (an idle keep-alive connection, or a client
   * that stopped halfway through a request); the JDK server closed idle connections after 30 s. Reads only: a
   * timer on writes would cost a future per answer.
   */
  static final int IDLE_SECONDS = 60;

  /** The transport of the server's sockets. */
  enum Transport {
    /** Epoll if Netty's native library loads, else NIO. */
    NATIVE_IF_AVAILABLE,
    NIO
  }

  private final EventLoopGroup loops;
  private final Channel listener;

  private DecisionHttpServer(EventLoopGroup loops, Channel listener) {
    this.loops = loops;
    this.listener = listener;
  }

  /**
   * Serves on {@code address} (null: every interface) and {@code port} (0: any free port) with {@code threadCount}
   * event-loop threads (0: one per available processor), its callers authenticated and its connections encrypted as
   * {@code security} says.
   */
  public static DecisionHttpServer start(DecisionService decisions, ApiSecurity security, String address, int port,
      int threadCount) throws IOException {
    return start(decisions, security, address, port, threadCount, Transport.NATIVE_IF_AVAILABLE);
  }

  /** On every interface, with every request the default scope's over plain HTTP (tests of what the API answers). */
  static DecisionHttpServer start(DecisionService decisions, int port, int threadCount) throws IOException {
    return start(decisions, ApiSecurity.none(), null, port, threadCount, Transport.NATIVE_IF_AVAILABLE);
  }

  static DecisionHttpServer start(DecisionService decisions, ApiSecurity security, String address, int port,
      int threadCount, Transport transport) throws IOException {
    boolean epoll = transport == Transport.NATIVE_IF_AVAILABLE && Epoll.isAvailable();
    IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    Class<? extends ServerChannel> channel = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    int threads = threadCount == 0 ? Runtime.getRuntime().availableProcessors() : threadCount;
    EventLoopGroup loops = new MultiThreadIoEventLoopGroup(threads,
        new DefaultThreadFactory("dpstream-decisions-http", true), io);
    DecisionApi api = new DecisionApi(decisions);
    ChannelFuture bound = new ServerBootstrap()
        .group(loops)
        .channel(channel)
        .option(ChannelOption.SO_BACKLOG, 1024)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel connection) {
            if (security.tls() != null) {
              connection.pipeline().addLast(security.tls().newHandler(connection.alloc()));
            }
            connection.pipeline().addLast(new IdleStateHandler(IDLE_SECONDS, 0, 0), new HttpRequestDecoder(DECODER),
                new DecisionApiHandler(api, security));
          }
        })
        .bind(address == null ? new InetSocketAddress(port) : new InetSocketAddress(address, port))
        .awaitUninterruptibly();
    if (!bound.isSuccess()) {
      loops.shutdownGracefully(0, 0, TimeUnit.SECONDS);
      if (bound.cause() instanceof IOException failed) {
        throw failed; // port in use, no permission
      }
      throw new IOException("cannot listen on " + (address == null ? "" : address + ", ") + "port " + port,
          bound.cause());
    }
    DecisionHttpServer server = new DecisionHttpServer(loops, bound.channel());
    LOG.info("decision API on {}port {}{}: {} event-loop threads, {}", address == null ? "" : address + ", ",
        server.port(), security.tls() == null ? "" : " (TLS)", threads, epoll ? "epoll" : "NIO");
    return server;
  }

  public int port() {
    return ((InetSocketAddress) listener.localAddress()).getPort();
  }

  @Override
  public void close() {
    listener.close().syncUninterruptibly();
    loops.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
