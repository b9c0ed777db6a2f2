package org.dpstream.bench.bandite2e;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.Promise;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The HTTP path's client, an open-loop load generator on one Netty event-loop thread (epoll on Linux, NIO
 * elsewhere) that drives every connection, so that it costs little next to the server it measures (as wrk
 * does): {@code connections} keep-alive decision connections with at most one request in flight each (no
 * pipelining), and {@code rewardConnections} keep-alive reward connections, one reward in flight each.
 *
 * <ul>
 *   <li>Request i is due at its place in the {@link Workload}'s schedule. It is sent at its due time on a free
 *       decision connection or, if none is free, as soon as one frees up (first come, first served), and its
 *       latency counts from its due time, so a server that falls behind shows its queue. With no rate, each
 *       connection sends its next request as soon as its previous one is answered.
 *   <li>Pacing: the loop schedules itself for the next request's due time (Netty's epoll loop waits on a
 *       timerfd, with microsecond precision; the NIO loop rounds waits up to whole milliseconds, which adds up
 *       to 1 ms to latency) and sends every request due by then. One wake-up per due time at most, none
 *       while no connection is free, and no spinning.
 *   <li>Each decision is answered by its reward, queued in order for the first free reward connection, so
 *       rewards never delay decisions; a reward's answer is not timed.
 *   <li>A non-200 answer to either fails the run with its status and body; the run ends when every decision
 *       was received and every reward answered.
 *   <li>Connections are opened before the schedule starts; request bodies are encoded straight into pooled
 *       buffers ({@link JsonPosts}) and the arm is read from the answer's bytes.
 * </ul>
 *
 * <p>All of the client's state is confined to its event loop: no locks.
 */
final class HttpLoad implements ClientConnection.Listener {

  private static final ByteBuf ARM_FIELD = Unpooled.unreleasableBuffer(
      Unpooled.wrappedBuffer("\"arm\":".getBytes(StandardCharsets.US_ASCII)));

  private final Workload workload;
  private final int connections;
  private final int rewardConnections;
  private final JsonPosts posts;
  private final ArrayDeque<ClientConnection> freeDeciders = new ArrayDeque<>();
  private final ArrayDeque<ClientConnection> freeRewarders = new ArrayDeque<>();
  private final List<ClientConnection> all = new ArrayList<>();
  /** Decided requests whose reward is not sent yet, in decision order: indices into {@link #decidedArm}. */
  private final int[] rewardQueue;
  private final int[] decidedArm;
  /** Per request: nanoseconds from its due time to its send (timer lateness plus waiting for a connection). */
  private final long[] sendDelay;
  private final Runnable pace = this::paced;
  private EventLoop loop;
  private Promise<Void> done;
  private int next;
  private int rewardHead;
  private int rewardTail;
  private int decisions;
  private int rewards;
  private int rewardBacklogAtLastDecision;
  private int mostRewardsWaiting;
  private boolean paceScheduled;

  private HttpLoad(Workload workload, String banditId, String token, int connections, int rewardConnections) {
    this.workload = workload;
    this.connections = connections;
    this.rewardConnections = rewardConnections;
    this.posts = new JsonPosts(banditId, token);
    this.rewardQueue = new int[workload.size()];
    this.decidedArm = new int[workload.size()];
    this.sendDelay = new long[workload.size()];
  }

  /**
   * Offers the workload to the decision API on localhost:{@code port}, authenticated with the bearer {@code token},
   * and returns a line about the client (transport, connections, how late requests were sent); throws if any answer
   * was not 200.
   */
  static String run(Workload workload, int port, String banditId, String token, int connections,
      int rewardConnections) throws Exception {
    return new HttpLoad(workload, banditId, token, connections, rewardConnections)
        .drive(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
  }

  private String drive(InetSocketAddress server) throws Exception {
    boolean epoll = Epoll.isAvailable();
    IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("bandit-e2e-client", true), io);
    try {
      loop = group.next();
      done = loop.newPromise();
      Bootstrap bootstrap = new Bootstrap().group(loop)
          .channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
          .option(ChannelOption.TCP_NODELAY, true);
      for (int c = 0; c < connections + rewardConnections; c++) {
        boolean decider = c < connections;
        ClientConnection connection = new ClientConnection(this, decider ? "decision connection " + c
            : "reward connection " + (c - connections), decider);
        bootstrap.handler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel channel) {
            channel.pipeline().addLast(new HttpResponseDecoder(), connection);
          }
        });
        bootstrap.connect(server).sync();
        all.add(connection);
        (decider ? freeDeciders : freeRewarders).add(connection);
      }
      loop.execute(() -> {
        workload.start();
        dispatch();
      });
      done.await();
      if (!done.isSuccess()) {
        Throwable cause = done.cause();
        throw cause instanceof Exception e ? e : new IOException(cause);
      }
      return describe(epoll);
    } finally {
      for (ClientConnection connection : all) {
        connection.channel().close();
      }
      group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  /** Sends every due request that finds a free decision connection; otherwise wakes up at the next due time. */
  private void dispatch() {
    while (next < workload.size() && !freeDeciders.isEmpty() && !done.isDone()) {
      long due = workload.due(next);
      long now = System.nanoTime();
      if (due > now) {
        if (!paceScheduled) {
          paceScheduled = true;
          loop.schedule(pace, due - now, TimeUnit.NANOSECONDS);
        }
        return;
      }
      int index = next++;
      sendDelay[index] = now - due;
      ClientConnection connection = freeDeciders.poll();
      connection.send(index, posts.decide(connection.channel().alloc(), index, workload.rounds[index].context()));
    }
  }

  private void paced() {
    paceScheduled = false;
    dispatch();
  }

  private void sendRewards() {
    while (rewardHead < rewardTail && !freeRewarders.isEmpty() && !done.isDone()) {
      int index = rewardQueue[rewardHead++];
      double reward = workload.rounds[index].observedReward(decidedArm[index]);
      ClientConnection connection = freeRewarders.poll();
      connection.send(index, posts.reward(connection.channel().alloc(), index, reward));
    }
  }

  @Override
  public void answered(ClientConnection connection, int index, int status, ByteBuf body, long receivedAt)
      throws IOException {
    boolean decision = connection.decides();
    if (status != 200) {
      throw new IOException((decision ? "decide" : "reward") + " answered " + status + ": "
          + body.toString(StandardCharsets.UTF_8));
    }
    if (decision) {
      int arm = armOf(body);
      int arms = workload.rounds[index].arms();
      if (arm < 0 || arm >= arms) {
        throw new IOException("decide answered no arm in 0.." + (arms - 1) + ": " + body.toString(StandardCharsets.UTF_8));
      }
      workload.decided(index, arm, receivedAt);
      decisions++;
      decidedArm[index] = arm;
      rewardQueue[rewardTail++] = index;
      mostRewardsWaiting = Math.max(mostRewardsWaiting, rewardTail - rewardHead);
      if (decisions == workload.size()) {
        rewardBacklogAtLastDecision = decisions - rewards;
      }
      freeDeciders.add(connection);
      sendRewards();
      dispatch();
    } else {
      rewards++;
      freeRewarders.add(connection);
      if (decisions == workload.size() && rewards == workload.size()) {
        done.trySuccess(null);
      } else {
        sendRewards();
      }
    }
  }

  @Override
  public void failed(Throwable cause) {
    done.tryFailure(cause);
  }

  /** The integer after {@code "arm":} in a decision's JSON answer, or -1 without one. */
  static int armOf(ByteBuf json) {
    int at = ByteBufUtil.indexOf(ARM_FIELD, json);
    if (at < 0) {
      return -1;
    }
    int end = json.writerIndex();
    int digit = at + ARM_FIELD.readableBytes();
    while (digit < end && json.getByte(digit) == ' ') {
      digit++;
    }
    int arm = -1;
    for (; digit < end && json.getByte(digit) >= '0' && json.getByte(digit) <= '9'; digit++) {
      arm = (arm < 0 ? 0 : arm * 10) + json.getByte(digit) - '0';
      if (arm > 1_000_000) {
        return -1;
      }
    }
    return arm;
  }

  private String describe(boolean epoll) {
    long[] sorted = sendDelay.clone();
    Arrays.sort(sorted);
    return String.format(Locale.ROOT, "client: Netty %s, 1 event-loop thread, %d decision + %d reward keep-alive"
            + " connections; request sent after its due time (timer and waiting for a free connection): p50 %.3f ms,"
            + " p99 %.3f ms, max %.3f ms; rewards waiting for a connection: at most %,d, %,d unanswered at the last"
            + " decision",
        epoll ? "epoll" : "NIO", connections, rewardConnections, Workload.percentile(sorted, 0.50) / 1e6,
        Workload.percentile(sorted, 0.99) / 1e6, sorted[sorted.length - 1] / 1e6, mostRewardsWaiting,
        rewardBacklogAtLastDecision);
  }
}
