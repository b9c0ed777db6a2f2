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
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.dpstream.app.kafka.TopicNames;
import org.dpstream.app.kafka.Topics;
import org.dpstream.app.serde.DpSerdes;
import org.dpstream.app.serde.SchemaSerde;
import org.dpstream.schemas.DecisionPhase;
import org.dpstream.schemas.DecisionRequest;
import org.dpstream.schemas.DecisionResponse;

/**
 * Warms the client's own code before it measures anything. The client's JVM has just started: without this,
 * its first second of sending ran interpreted and was compiled under load, and requests were sent up to 138 ms
 * after their due time at its p99 (HTTP), which the bench counted as the service's latency. The warm-up offers a
 * workload of its own ({@value #REQUESTS} requests, paced, so that the open loop's timer is compiled too) to a
 * stand-in that answers every request with arm 0: over HTTP an API in the client's JVM; over Kafka a decider in the
 * client's JVM on scratch topics of the broker ({@value #SCRATCH}*), which the service does not read. The service
 * sees none of it. The broker does: it is warm when the measured load starts, as a production broker would be.
 */
final class ClientWarmUp {

  static final int REQUESTS = 20_000;
  static final double RATE = 10_000;
  static final double KAFKA_RATE = 5_000;
  static final String SCRATCH = "bandit-e2e-client-warm-up.";
  private static final byte[] ANSWER =
      "{\"requestId\":\"warm-up\",\"arm\":0,\"modelStep\":0,\"phase\":\"WARM_UP\"}".getBytes(StandardCharsets.UTF_8);

  private ClientWarmUp() {}

  /** Runs the warm-up over HTTP with the real run's shape (dimension, arms, connections). */
  static void http(int dimension, int arms, long seed, int connections, int rewardConnections) throws Exception {
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
      HttpLoad.run(new Workload(dimension, arms, REQUESTS, ~seed, RATE), port, "warm-up", connections,
          rewardConnections);
    } finally {
      group.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  /** Runs the warm-up through scratch topics of the broker at {@code bootstrap}, then deletes them. */
  static void kafka(String bootstrap, int dimension, int arms, long seed) throws Exception {
    Map<String, Object> config = Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    Topics scratch = new Topics(new TopicNames(SCRATCH + "samples", SCRATCH + "releases", SCRATCH + "rejected",
        SCRATCH + "contexts", SCRATCH + "decisions", SCRATCH + "rewards", null));
    List<String> used = List.of(scratch.contexts().name(), scratch.decisions().name(), scratch.rewards().name());
    try (Admin admin = Admin.create(config)) {
      admin.createTopics(used.stream().map(name -> new NewTopic(name, 1, (short) 1)).toList()).all().get();
      AtomicBoolean stop = new AtomicBoolean();
      Thread standIn = Workload.started("bandit-e2e-stand-in", () -> decideWithArmZero(config, scratch, stop));
      try {
        KafkaLoad.run(new Workload(dimension, arms, REQUESTS, ~seed, KAFKA_RATE), config, scratch, "warm-up", 0);
      } finally {
        stop.set(true);
        standIn.join();
      }
      admin.deleteTopics(used).all().get();
    }
  }

  /** The Kafka stand-in: every context on the scratch contexts topic decided with arm 0 on the scratch decisions. */
  private static void decideWithArmZero(Map<String, Object> config, Topics scratch, AtomicBoolean stop) {
    SchemaSerde<DecisionRequest> requests = DpSerdes.decisionRequest();
    SchemaSerde<DecisionResponse> decisions = DpSerdes.decisionResponse();
    try (KafkaConsumer<byte[], byte[]> consumer =
            new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        KafkaProducer<byte[], byte[]> producer =
            new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer())) {
      consumer.assign(List.of(new TopicPartition(scratch.contexts().name(), 0)));
      consumer.seekToBeginning(consumer.assignment());
      while (!stop.get()) {
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(20))) {
          DecisionResponse decision = DecisionResponse.newBuilder()
              .setRequestId(requests.decodeOrThrow(record.value()).getRequestId()).setArm(0).setModelStep(0)
              .setPhase(DecisionPhase.WARM_UP).build();
          producer.send(new ProducerRecord<>(scratch.decisions().name(), record.key(), decisions.encode(decision)));
        }
      }
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
