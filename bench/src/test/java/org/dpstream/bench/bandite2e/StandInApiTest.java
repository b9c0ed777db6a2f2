package org.dpstream.bench.bandite2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dpstream.bench.BenchRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The stand-in for the decision API, and {@code bandit-e2e --stand-in}, which measures the client against it. */
@Timeout(120)
class StandInApiTest {

  private static final Pattern ANSWER =
      Pattern.compile("HTTP/1\\.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: (\\d+)\r\n\r\n");

  @Test
  void theClientsWholeWorkloadIsAnsweredWithArmZero() throws Exception {
    Workload workload = new Workload(4, 3, 500, 11, 0);
    try (StandInApi api = StandInApi.start(2)) {
      HttpLoad.run(workload, api.port(), "b", "t0ken", 8, 4);
    }
    assertEquals(500, workload.decisions());
    assertTrue(workload.describe().contains("decisions per arm {0=500}"), workload.describe());
  }

  @Test
  void pipelinedRequestsOfAnyBodyFramingAreEachAnsweredOnce() throws Exception {
    String decide = "{\"requestId\":\"r1\",\"context\":[1.0]}";
    String requests = "POST /v1/bandits/b/decide HTTP/1.1\r\nhost: x\r\ncontent-length: " + decide.length()
        + "\r\n\r\n" + decide
        + "POST /v1/bandits/b/reward HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\n"
        + "5\r\n{\"req\r\n1a\r\nuestId\":\"r1\",\"reward\":0.5}\r\n0\r\n\r\n"
        + "GET /anything HTTP/1.1\r\nhost: x\r\n\r\n";
    try (StandInApi api = StandInApi.start(1);
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), api.port())) {
      socket.setSoTimeout(10_000); // a missing answer fails the test instead of blocking it
      OutputStream out = socket.getOutputStream();
      out.write(requests.getBytes(StandardCharsets.US_ASCII));
      out.flush();
      String answers = readAnswers(socket.getInputStream(), 3);
      Matcher heads = ANSWER.matcher(answers);
      int count = 0;
      int end = 0;
      while (heads.find()) {
        assertEquals(end, heads.start(), "answers follow each other with nothing between: " + answers);
        int length = Integer.parseInt(heads.group(1));
        String body = answers.substring(heads.end(), heads.end() + length);
        assertEquals(0, HttpLoad.armOf(Unpooled.copiedBuffer(body, StandardCharsets.US_ASCII)), body);
        end = heads.end() + length;
        count++;
      }
      assertEquals(3, count, answers);
      assertEquals(answers.length(), end, answers);
    }
  }

  @Test
  void theBenchMeasuresTheClientAgainstTheStandInWithoutAService() {
    BenchRun run = BenchRun.of("bandit-e2e", "--stand-in", "--path", "http", "--d", "5", "--K", "3",
        "--requests", "3000", "--rate", "0", "--connections", "4", "--service-warm-up", "0");
    assertEquals(0, run.exitCode(), run.err() + run.out());
    assertTrue(run.out().contains("service: a stand-in that answers every request with arm 0"), run.out());
    assertTrue(run.out().contains("decisions: 3,000 in"), run.out());
    assertTrue(run.out().contains("decisions per arm {0=3000}"), run.out());
    assertTrue(run.out().contains("learnt: nothing (a stand-in)"), run.out());
  }

  @Test
  void theStandInIsForTheHttpPathOnly() {
    BenchRun run = BenchRun.of("bandit-e2e", "--stand-in", "--path", "kafka", "--requests", "10");
    assertTrue(run.exitCode() != 0, run.out());
    assertTrue(run.err().contains("--stand-in stands in for the HTTP API: use it with --path http"), run.err());
  }

  /** Reads until {@code count} whole answers (head and content-length body) have arrived. */
  private static String readAnswers(InputStream in, int count) throws Exception {
    ByteArrayOutputStream read = new ByteArrayOutputStream();
    byte[] buffer = new byte[4096];
    while (true) {
      String sofar = read.toString(StandardCharsets.US_ASCII);
      Matcher heads = ANSWER.matcher(sofar);
      int found = 0;
      int end = 0;
      while (heads.find()) {
        found++;
        end = heads.end() + Integer.parseInt(heads.group(1));
      }
      if (found == count && sofar.length() >= end) {
        return sofar;
      }
      int n = in.read(buffer);
      if (n < 0) {
        return sofar;
      }
      read.write(buffer, 0, n);
    }
  }
}
