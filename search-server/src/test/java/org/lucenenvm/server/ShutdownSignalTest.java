package org.lucenenvm.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.lucenenvm.demo.SyntheticCorpus;
import org.lucenenvm.realtime.DurabilityMode;

/**
 * The command-line server in its own JVM (default, crash-consistent mode), stopped with SIGTERM
 * (the shutdown hook closes it) or killed with SIGKILL: the next server reopens the index with
 * every acknowledged write.
 */
public class ShutdownSignalTest {
  private static final long LOG_BYTES = 1L << 20;

  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  @Test
  public void sigtermShutsDownGracefully() throws Exception {
    Path data = tmp.newFolder().toPath();
    Process child = startCli(data);
    try {
      writeAcknowledged(child);
      child.destroy();
      assertTrue("server did not stop", child.waitFor(60, TimeUnit.SECONDS));
      assertEquals("exit status after SIGTERM", 143, child.exitValue());
    } finally {
      child.destroyForcibly();
    }
    assertRestartServesEveryAcknowledgedWrite(data);
  }

  /** Creates index {@code sig} on the running server, adds 300 documents and deletes one. */
  private static void writeAcknowledged(Process child) throws Exception {
    URI base = awaitUri(child);
    try (ApiClient api = new ApiClient(base, null)) {
      api.createIndex("sig", SyntheticCorpus.indexSpec(2));
      assertEquals(300, api.bulk("sig", new SyntheticCorpus(1000).batch(0, 300)).get("acknowledged").asLong());
      api.call("DELETE", "indexes/sig/docs/doc-5", null);
    }
  }

  /** kill -9 of a server in its default (crash-consistent) mode loses no acknowledged document. */
  @Test
  public void sigkillLosesNothingAcknowledged() throws Exception {
    Path data = tmp.newFolder().toPath();
    Process child = startCli(data);
    try {
      writeAcknowledged(child);
    } finally {
      child.destroyForcibly(); // SIGKILL
      child.waitFor(60, TimeUnit.SECONDS);
    }
    assertRestartServesEveryAcknowledgedWrite(data);
  }

  private static void assertRestartServesEveryAcknowledgedWrite(Path data) throws Exception {
    ServerConfig config =
        LiveServer.config(data).mode(DurabilityMode.CRASH_CONSISTENT).logBytes(LOG_BYTES).build();
    try (LiveServer s = new LiveServer(config)) {
      assertEquals(299, s.get("/indexes/sig/_stats").json().get("docs").asLong());
      assertEquals(404, s.get("/indexes/sig/docs/doc-5").status());
      assertEquals(200, s.get("/indexes/sig/docs/doc-299").status());
    }
  }

  private static Process startCli(Path data) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("--enable-native-access=ALL-UNNAMED");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(ServerCli.class.getName());
    command.addAll(List.of("--port", "0", "--data-dir", data.toString(), "--pool-size", "16m", "--log-size", Long.toString(LOG_BYTES), "--segment-size", "50"));
    return new ProcessBuilder(command).redirectErrorStream(true).start();
  }

  /** Reads the child's output until it prints the address it listens on. */
  private static URI awaitUri(Process child) throws Exception {
    BufferedReader out =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
    Pattern listening = Pattern.compile("search server on (http://\\S+/)");
    StringBuilder seen = new StringBuilder();
    for (String line = out.readLine(); line != null; line = out.readLine()) {
      seen.append(line).append('\n');
      Matcher m = listening.matcher(line);
      if (m.find()) {
        Thread drainer = new Thread(() -> out.lines().forEach(l -> {}));
        drainer.setDaemon(true);
        drainer.start();
        return URI.create(m.group(1));
      }
    }
    assertNotNull("the server exited before listening:\n" + seen, null);
    return null;
  }
}
