package org.dpstream.bench.bandite2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The client's JVM: its report is what it printed after the marker, and the marker runs the bench's reading. */
class ClientProcessTest {

  /** A child that prints its arguments around the marker, then exits with the code given first. */
  public static final class Child {
    public static void main(String[] args) {
      System.out.println("before the marker");
      if (args.length > 1) {
        System.out.println(args[1]);
      }
      for (int i = 2; i < args.length; i++) {
        System.out.println(args[i]);
      }
      System.out.flush();
      System.exit(Integer.parseInt(args[0]));
    }
  }

  @Test
  void theLinesAfterTheMarkerAreTheReportAndTheMarkerRunsTheReadingOnce() throws Exception {
    AtomicInteger readings = new AtomicInteger();
    ClientProcess.Report<String> report = ClientProcess.run(Child.class,
        new String[] {"0", "MARK", "first line", "MARK", "last line"}, "MARK",
        () -> "read " + readings.incrementAndGet());
    assertEquals(List.of("first line", "MARK", "last line"), report.lines());
    assertEquals("read 1", report.atMarker());
    assertEquals(1, readings.get());
  }

  /** A child that says PAUSE, waits to be resumed, then prints what it waited for around the marker. */
  public static final class PausingChild {
    public static void main(String[] args) throws Exception {
      System.out.println("PAUSE");
      System.out.flush();
      ClientProcess.awaitResume(new java.io.BufferedReader(new java.io.InputStreamReader(System.in)));
      System.out.println("MARK");
      System.out.println("resumed with " + System.getenv("CHILD_SECRET"));
      System.out.flush();
    }
  }

  @Test
  void aPausedChildGoesOnOnlyOnceTheBenchHasRunWhatComesBeforeResuming() throws Exception {
    List<String> order = new java.util.concurrent.CopyOnWriteArrayList<>();
    ClientProcess.Report<String> report = ClientProcess.run(PausingChild.class, new String[0],
        Map.of("CHILD_SECRET", "s3cret"), "PAUSE", () -> order.add("before resuming"), "MARK", () -> {
          order.add("at the marker");
          return "read";
        });
    assertEquals(List.of("before resuming", "at the marker"), order);
    assertEquals(List.of("resumed with s3cret"), report.lines(), "its environment has the variables given");
  }

  @Test
  void aChildThatIsNotResumedFails() throws Exception {
    assertThrows(java.io.IOException.class, () -> ClientProcess.awaitResume(
        new java.io.BufferedReader(new java.io.StringReader("go on\n"))));
    assertThrows(java.io.IOException.class, () -> ClientProcess.awaitResume(
        new java.io.BufferedReader(new java.io.StringReader(""))));
  }

  @Test
  void aChildThatFailsOrNeverReachesTheMarkerFailsTheRun() {
    IllegalStateException failed = assertThrows(IllegalStateException.class,
        () -> ClientProcess.run(Child.class, new String[] {"3", "MARK"}, "MARK", () -> "read"));
    assertTrue(failed.getMessage().contains("exit code 3"), failed.getMessage());
    IllegalStateException unmarked = assertThrows(IllegalStateException.class,
        () -> ClientProcess.run(Child.class, new String[] {"0", "no marker"}, "MARK", () -> "read"));
    assertTrue(unmarked.getMessage().contains("never said 'MARK'")
        && unmarked.getMessage().contains("no marker"), unmarked.getMessage());
  }
}
