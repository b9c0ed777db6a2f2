package org.dpstream.bench.bandite2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.OutputStream;
import java.io.PrintStream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The bench hands its options to the client's JVM unchanged. */
class BanditLoadClientTest {

  @Test
  void theClientGetsTheBenchOptionsAndTheServiceAddress() {
    BanditEndToEndCommand bench = new BanditEndToEndCommand();
    new CommandLine(bench).parseArgs("--path", "kafka", "--d", "7", "--K", "3", "--requests", "11", "--rate", "0.5",
        "--seed", "9", "--connections", "5", "--window", "13", "--service-warm-up", "17");
    BanditLoadClient client = new BanditLoadClient(new PrintStream(OutputStream.nullOutputStream()),
        new java.io.BufferedReader(new java.io.StringReader("")));
    new CommandLine(client).setCaseInsensitiveEnumValuesAllowed(true).parseArgs(
        BanditLoadClient.arguments(bench, BanditEndToEndCommand.Path.KAFKA, "b", 4321, "host:9092"));
    assertEquals(BanditEndToEndCommand.Path.KAFKA, client.path);
    assertEquals(4321, client.port);
    assertEquals("host:9092", client.bootstrap);
    assertEquals("b", client.banditId);
    assertEquals(7, client.dimension);
    assertEquals(3, client.arms);
    assertEquals(11, client.requests);
    assertEquals(0.5, client.rate);
    assertEquals(9, client.seed);
    assertEquals(5, client.connections);
    assertEquals(5, client.rewardConnections, "by default as many as --connections");
    assertEquals(13, client.window);
    assertEquals(17, client.serviceWarmUp);
    assertEquals(BanditEndToEndCommand.WARM_UP_BANDIT, client.warmUpBandit);
  }

  @Test
  void byDefaultTheServiceIsWarmedUp() {
    BanditEndToEndCommand bench = new BanditEndToEndCommand();
    new CommandLine(bench).parseArgs();
    assertEquals(20_000, bench.serviceWarmUp);
  }
}
