package org.dpstream.bench.bandite2e;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;
import java.io.IOException;

/**
 * One keep-alive connection of the bench's HTTP client, behind Netty's response decoder: at most one request
 * in flight (no pipelining); it collects the response's status and body into a buffer of its own (reused for
 * every response, so an answer costs no garbage beyond the decoder's) and hands them to its {@link Listener}.
 * Confined to the client's event loop.
 */
final class ClientConnection extends SimpleChannelInboundHandler<HttpObject> {

  /** What the client does with an answer or a broken connection (called on the event loop). */
  interface Listener {

    /**
     * The response to request {@code index}, the request that was in flight on {@code connection} (now free
     * again: the listener may send its next request on it); {@code body} is valid during the call only.
     */
    void answered(ClientConnection connection, int index, int status, ByteBuf body, long receivedAt)
        throws IOException;

    void failed(Throwable cause);
  }

  private final Listener listener;
  private final String name;
  private final boolean decides;
  private Channel channel;
  private ByteBuf body;
  private int status;
  private int request = -1;

  /** {@code decides}: a decision connection, else a reward connection. */
  ClientConnection(Listener listener, String name, boolean decides) {
    this.listener = listener;
    this.name = name;
    this.decides = decides;
  }

  boolean decides() {
    return decides;
  }

  Channel channel() {
    return channel;
  }

  /** The index of the request in flight on this connection, -1 when it is free. */
  int request() {
    return request;
  }

  /** Sends {@code post}, an encoded request for request {@code index} (the connection takes ownership). */
  void send(int index, ByteBuf post) {
    request = index;
    channel.writeAndFlush(post, channel.voidPromise());
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    channel = ctx.channel();
    body = ctx.alloc().heapBuffer(256);
  }

  @Override
  public void handlerRemoved(ChannelHandlerContext ctx) {
    body.release();
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, HttpObject message) throws IOException {
    if (message.decoderResult().isFailure()) {
      throw new IOException(name + ": malformed response", message.decoderResult().cause());
    }
    if (message instanceof HttpResponse response) {
      status = response.status().code();
      body.clear();
    }
    if (message instanceof HttpContent content) {
      body.writeBytes(content.content(), content.content().readerIndex(), content.content().readableBytes());
    }
    if (message instanceof LastHttpContent) {
      long receivedAt = System.nanoTime();
      if (request < 0) {
        throw new IOException(name + ": a response without a request (status " + status + ")");
      }
      int index = request;
      request = -1;
      listener.answered(this, index, status, body, receivedAt);
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    listener.failed(new IOException(name + ": the server closed the connection"
        + (request >= 0 ? " with request " + request + " in flight" : "")));
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    listener.failed(cause);
    ctx.close();
  }
}
