package org.dpstream.service.decide.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.security.auth.x500.X500Principal;
import org.dpstream.service.bandit.Caller;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection of the decision API, after Netty's request decoder: collects each request's body (up to
 * {@link DecisionHttpServer#MAX_BODY_BYTES}), authenticates its caller ({@link ApiSecurity}: the bearer token of its
 * {@code Authorization} header, or the connection's client certificate), has {@link DecisionApi} answer it on this
 * event loop, and writes the answer. Requests are answered one after the other as they are read, so pipelined requests are answered in
 * order; answers are flushed once per read from the socket (several pipelined answers in one write).
 *
 * <ul>
 *   <li>A body over the limit (by its Content-Length, or as its chunks arrive) is not kept: the rest of it is read
 *       and dropped, then the request is answered (400 {@code TOO_LARGE}) and the connection kept. A client that
 *       announces such a body with {@code Expect: 100-continue} is answered at once and the connection closed.
 *   <li>HTTP that cannot be decoded (a bad request line, headers over 8 KiB, a bad Content-Length or chunk) is
 *       answered 400 {@code BAD_REQUEST} and that connection closed; other connections are not affected.
 *   <li>{@code Connection: close}, and HTTP/1.0 without {@code Connection: keep-alive}: the connection is closed
 *       once the answer is written; what the client sent after that request is ignored.
 *   <li>A connection from which nothing was read for {@link DecisionHttpServer#IDLE_SECONDS} is closed.
 *   <li>A client that sends requests without reading the answers stops being read once its unwritten answers
 *       pass the channel's high water mark, until they drain.
 * </ul>
 */
final class DecisionApiHandler extends ChannelInboundHandlerAdapter {

  private static final Logger LOG = LoggerFactory.getLogger(DecisionApiHandler.class);

  private final DecisionApi api;
  private final ApiSecurity security;
  /** Whether the connection's client certificate was looked up, and its subject (null: none). */
  private boolean certificateLookedUp;
  private String certificateSubject;

  /** The request whose body is being read, or null between requests. */
  private HttpRequest request;
  private long began;
  /** The body collected so far when it came in several chunks; null otherwise. */
  private ByteBuf body;
  /** The request's body is over the limit: its chunks are dropped. */
  private boolean tooLarge;
  /** The connection closes after the answers written so far: anything read is dropped. */
  private boolean closing;
  private boolean unflushed;

  DecisionApiHandler(DecisionApi api, ApiSecurity security) {
    this.api = api;
    this.security = security;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    try {
      if (closing) {
        return;
      }
      if (msg instanceof HttpRequest head) {
        begin(ctx, head);
      }
      if (msg instanceof HttpContent chunk && request != null && !closing) {
        read(ctx, chunk);
      }
    } finally {
      ReferenceCountUtil.release(msg);
    }
  }

  private void begin(ChannelHandlerContext ctx, HttpRequest head) {
    if (head.decoderResult().isFailure()) {
      malformed(ctx, head.decoderResult().cause());
      return;
    }
    request = head;
    began = System.nanoTime();
    tooLarge = HttpUtil.getContentLength(head, -1L) > DecisionHttpServer.MAX_BODY_BYTES;
    if (HttpUtil.is100ContinueExpected(head)) {
      if (tooLarge) {
        // The client waits before sending the body: answered now, without reading it.
        answer(ctx, null, false);
        return;
      }
      ctx.write(ctx.alloc().buffer(HttpAnswerHead.CONTINUE.length).writeBytes(HttpAnswerHead.CONTINUE));
      unflushed = true;
    }
  }

  private void read(ChannelHandlerContext ctx, HttpContent chunk) {
    if (chunk.decoderResult().isFailure()) {
      malformed(ctx, chunk.decoderResult().cause());
      return;
    }
    ByteBuf content = chunk.content();
    boolean last = chunk instanceof LastHttpContent;
    if (!tooLarge && content.isReadable()) {
      int collected = body == null ? 0 : body.readableBytes();
      if (collected + (long) content.readableBytes() > DecisionHttpServer.MAX_BODY_BYTES) {
        tooLarge = true;
        releaseBody();
      } else if (body == null && last) {
        // The whole body in one piece (the usual case): read in place, no copy.
        answer(ctx, content, true);
        return;
      } else {
        if (body == null) {
          long declared = HttpUtil.getContentLength(request, -1L);
          body = ctx.alloc().buffer(declared > 0 ? (int) declared : 1024, DecisionHttpServer.MAX_BODY_BYTES);
        }
        body.writeBytes(content);
      }
    }
    if (last) {
      answer(ctx, tooLarge ? null : body == null ? content : body, true);
    }
  }

  /** Answers the current request ({@code content} null: over the limit) and ends it. */
  private void answer(ChannelHandlerContext ctx, ByteBuf content, boolean mayKeepAlive) {
    HttpRequest answered = request;
    request = null;
    boolean keepAlive = mayKeepAlive && HttpUtil.isKeepAlive(answered);
    ByteBuf out = ctx.alloc().buffer(256);
    int status;
    try {
      Caller caller = security.authenticate(answered.headers().get(HttpHeaderNames.AUTHORIZATION),
          certificateSubject(ctx));
      status = api.answer(caller, answered.method(), answered.uri(), content, out, began);
    } finally {
      releaseBody();
      tooLarge = false;
    }
    HttpAnswerHead.Connection connection = !keepAlive ? HttpAnswerHead.Connection.CLOSE
        : answered.protocolVersion().equals(HttpVersion.HTTP_1_0) ? HttpAnswerHead.Connection.KEEP_ALIVE
        : HttpAnswerHead.Connection.DEFAULT;
    write(ctx, status, out, connection, HttpMethod.HEAD.equals(answered.method()));
  }

  /**
   * The subject (RFC 2253) of the client certificate the TLS handshake verified, or null (plain HTTP, or a client
   * without one where certificates are optional). Looked up once per connection: the handshake precedes every request.
   */
  private String certificateSubject(ChannelHandlerContext ctx) {
    if (!certificateLookedUp) {
      certificateLookedUp = true;
      SslHandler tls = ctx.pipeline().get(SslHandler.class);
      if (tls != null) {
        try {
          Certificate[] chain = tls.engine().getSession().getPeerCertificates();
          if (chain.length > 0 && chain[0] instanceof X509Certificate client) {
            certificateSubject = client.getSubjectX500Principal().getName(X500Principal.RFC2253);
          }
        } catch (SSLPeerUnverifiedException e) {
          // No client certificate: the request must carry a bearer token.
        }
      }
    }
    return certificateSubject;
  }

  private void malformed(ChannelHandlerContext ctx, Throwable cause) {
    request = null;
    releaseBody();
    ByteBuf out = ctx.alloc().buffer(256);
    // The decoder's message names what was wrong (it may quote this client's own bytes back to it; not logged).
    JsonAnswers.error(out, "BAD_REQUEST", "malformed HTTP request: " + cause.getMessage());
    write(ctx, 400, out, HttpAnswerHead.Connection.CLOSE, false);
  }

  private void write(ChannelHandlerContext ctx, int status, ByteBuf body, HttpAnswerHead.Connection connection,
      boolean head) {
    ByteBuf out = ctx.alloc().buffer(160);
    HttpAnswerHead.write(out, status, body.readableBytes(), connection, security.acceptsBearer());
    // Void promises: no future per write (a failed write reaches exceptionCaught, which closes the connection).
    ctx.write(out, ctx.voidPromise());
    ByteBuf last = body;
    if (head) {
      body.release(); // a HEAD request's answer has the headers of the body it does not carry
      last = Unpooled.EMPTY_BUFFER;
    }
    if (connection == HttpAnswerHead.Connection.CLOSE) {
      closing = true;
      unflushed = false;
      ctx.writeAndFlush(last).addListener(ChannelFutureListener.CLOSE);
      return;
    }
    ctx.write(last, ctx.voidPromise());
    unflushed = true;
    if (!ctx.channel().isWritable()) {
      ctx.flush();
      unflushed = false;
      ctx.channel().config().setAutoRead(false);
    }
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    if (unflushed) {
      unflushed = false;
      ctx.flush();
    }
    ctx.fireChannelReadComplete();
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    if (ctx.channel().isWritable()) {
      ctx.channel().config().setAutoRead(true);
    }
    ctx.fireChannelWritabilityChanged();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    releaseBody();
    ctx.fireChannelInactive();
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
    if (event instanceof IdleStateEvent) {
      ctx.close(); // nothing read for DecisionHttpServer.IDLE_SECONDS
    } else {
      ctx.fireUserEventTriggered(event);
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    // A reset or broken connection: this connection ends, the server goes on.
    LOG.debug("decision API: connection closed after {}", cause.getClass().getName());
    releaseBody();
    ctx.close();
  }

  private void releaseBody() {
    if (body != null) {
      body.release();
      body = null;
    }
  }
}
