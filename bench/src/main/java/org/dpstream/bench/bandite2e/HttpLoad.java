package org.dpstream.bench.bandite2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.dpstream.app.decide.MiniHttpClient;

/**
 * The HTTP path's client: {@code connections} persistent connections take the requests in order, each
 * waiting for its request's due time (open loop: a request that finds no free connection is late, and the
 * wait counts as latency), POST /decide, and hand the decision to reward senders that POST its reward on
 * their own connections, so rewards never delay decisions.
 */
final class HttpLoad {

  private static final int REWARD_CONNECTIONS = 4;
  private static final int[] DONE = {-1, -1};

  private HttpLoad() {}

  static void run(Workload workload, int port, String banditId, int connections) throws Exception {
    String decide = "/v1/bandits/" + banditId + "/decide";
    String reward = "/v1/bandits/" + banditId + "/reward";
    AtomicInteger next = new AtomicInteger();
    AtomicReference<Exception> failure = new AtomicReference<>();
    BlockingQueue<int[]> rewards = new LinkedBlockingQueue<>();
    List<Thread> threads = new ArrayList<>();
    workload.start();
    for (int c = 0; c < connections; c++) {
      threads.add(Workload.started("bandit-e2e-http-" + c, () -> {
        try (MiniHttpClient client = new MiniHttpClient(port)) {
          for (int i = next.getAndIncrement(); i < workload.size() && failure.get() == null;
              i = next.getAndIncrement()) {
            workload.awaitDue(i);
            MiniHttpClient.Response response = client.post(decide, decideBody(i, workload.rounds[i].context()));
            long now = System.nanoTime();
            if (response.status() != 200) {
              throw new IOException("decide answered " + response.status() + ": " + response.body());
            }
            int arm = intField(response.body(), "\"arm\":");
            workload.decided(i, arm, now);
            rewards.add(new int[] {i, arm});
          }
        } catch (Exception e) {
          failure.compareAndSet(null, e);
        }
      }));
    }
    List<Thread> rewarders = new ArrayList<>();
    for (int c = 0; c < REWARD_CONNECTIONS; c++) {
      rewarders.add(Workload.started("bandit-e2e-reward-" + c, () -> {
        try (MiniHttpClient client = new MiniHttpClient(port)) {
          for (int[] decided = rewards.take(); decided != DONE; decided = rewards.take()) {
            double r = workload.rounds[decided[0]].observedReward(decided[1]);
            byte[] body = ("{\"requestId\":\"" + decided[0] + "\",\"reward\":" + r + "}")
                .getBytes(StandardCharsets.UTF_8);
            MiniHttpClient.Response response = client.post(reward, body);
            if (response.status() != 200) {
              throw new IOException("reward answered " + response.status() + ": " + response.body());
            }
          }
        } catch (Exception e) {
          failure.compareAndSet(null, e);
        }
      }));
    }
    for (Thread thread : threads) {
      thread.join();
    }
    for (int c = 0; c < REWARD_CONNECTIONS; c++) {
      rewards.add(DONE);
    }
    for (Thread thread : rewarders) {
      thread.join();
    }
    if (failure.get() != null) {
      throw failure.get();
    }
  }

  private static byte[] decideBody(int i, double[] context) {
    StringBuilder body = new StringBuilder(24 * context.length + 40);
    body.append("{\"requestId\":\"").append(i).append("\",\"context\":[");
    for (int j = 0; j < context.length; j++) {
      body.append(j == 0 ? "" : ",").append(context[j]);
    }
    return body.append("]}").toString().getBytes(StandardCharsets.UTF_8);
  }

  static int intField(String json, String field) {
    int from = json.indexOf(field) + field.length();
    int to = from;
    while (to < json.length() && (Character.isDigit(json.charAt(to)) || json.charAt(to) == '-')) {
      to++;
    }
    return Integer.parseInt(json.substring(from, to));
  }
}
