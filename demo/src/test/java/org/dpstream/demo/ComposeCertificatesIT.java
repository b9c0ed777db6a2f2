package org.dpstream.demo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.dpstream.service.testing.RepositoryFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/security/generate-certificates.sh, as docker-compose.secured.yml's kafka-certs runs it, run here with the
 * JDK's keytool (skipped where bash is missing): its stores open with the passwords it wrote, the broker's
 * certificate is the CA's and valid for kafka and localhost, a TLS connection with client certificates succeeds
 * between the broker's store and the administrator's (as on the INTERNAL listener), the logins match the SCRAM
 * passwords kafka-init sets, private files are not world-readable, and a second start keeps everything.
 */
@Timeout(180)
class ComposeCertificatesIT {

  private final Path script = RepositoryFiles.root().resolve("deploy/security/generate-certificates.sh");

  @Test
  void theScriptWritesWorkingStoresAndLoginsOnceAndKeepsThem(@TempDir Path work) throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/bin/bash")), "bash is not installed: the certificate script is not run");
    Path out = work.resolve("generated");
    run(out);

    char[] storePassword = read(out, "store-password").toCharArray();
    char[] trustPassword = read(out, "truststore-password").toCharArray();
    KeyStore trust = load(out.resolve("truststore.p12"), trustPassword);
    X509Certificate ca = (X509Certificate) trust.getCertificate("ca");
    KeyStore broker = load(out.resolve("kafka.p12"), storePassword);
    X509Certificate kafka = (X509Certificate) broker.getCertificate("kafka");
    assertEquals("CN=kafka", kafka.getSubjectX500Principal().getName());
    kafka.verify(ca.getPublicKey());
    assertEquals(Set.of(List.of(2, "kafka"), List.of(2, "localhost"), List.of(7, "127.0.0.1")),
        Set.copyOf(kafka.getSubjectAlternativeNames()));
    KeyStore admin = load(out.resolve("admin.p12"), storePassword);
    assertEquals("CN=admin", ((X509Certificate) admin.getCertificate("admin")).getSubjectX500Principal().getName());
    assertEquals("CN=admin", mutualTlsPeer(broker, admin, trust, storePassword));

    Properties users = properties(out.resolve("users.env"));
    assertTrue(properties(out.resolve("dpstream.properties")).getProperty("sasl.jaas.config")
        .endsWith("username=\"dpstream\" password=\"" + users.getProperty("DPSTREAM_PASSWORD") + "\";"));
    Properties reader = properties(out.resolve("reader.properties"));
    assertTrue(reader.getProperty("sasl.jaas.config")
        .endsWith("username=\"reader\" password=\"" + users.getProperty("READER_PASSWORD") + "\";"));
    assertEquals("SASL_SSL", reader.getProperty("security.protocol"));
    assertEquals(new String(trustPassword), reader.getProperty("ssl.truststore.password"));

    for (String file : List.of("kafka.p12", "admin.p12", "store-password", "admin.properties", "users.env",
        "dpstream.properties")) {
      assertTrue(!Files.getPosixFilePermissions(out.resolve(file)).contains(PosixFilePermission.OTHERS_READ), file);
    }

    byte[] before = Files.readAllBytes(out.resolve("kafka.p12"));
    run(out);
    assertArrayEquals(before, Files.readAllBytes(out.resolve("kafka.p12")), "a second start keeps the certificates");
  }

  /** The server-side principal of a TLS connection from the administrator's store to the broker's, both required. */
  private static String mutualTlsPeer(KeyStore broker, KeyStore admin, KeyStore trust, char[] password)
      throws Exception {
    SSLContext server = context(broker, trust, password);
    SSLContext client = context(admin, trust, password);
    try (SSLServerSocket listener = (SSLServerSocket) server.getServerSocketFactory()
        .createServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      listener.setNeedClientAuth(true);
      CompletableFuture<String> peer = CompletableFuture.supplyAsync(() -> {
        try (SSLSocket socket = (SSLSocket) listener.accept()) {
          socket.startHandshake();
          return socket.getSession().getPeerPrincipal().getName();
        } catch (IOException e) {
          throw new IllegalStateException(e);
        }
      });
      try (SSLSocket socket = (SSLSocket) client.getSocketFactory().createSocket("localhost", listener.getLocalPort())) {
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS"); // as Kafka clients verify the broker's name
        socket.setSSLParameters(parameters);
        socket.startHandshake();
      }
      return peer.get(30, TimeUnit.SECONDS);
    }
  }

  private static SSLContext context(KeyStore keys, KeyStore trust, char[] password) throws Exception {
    KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keyManagers.init(keys, password);
    TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trustManagers.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keyManagers.getKeyManagers(), trustManagers.getTrustManagers(), null);
    return context;
  }

  private void run(Path out) throws Exception {
    ProcessBuilder builder = new ProcessBuilder("/bin/bash", script.toString(), out.toString())
        .redirectErrorStream(true);
    // keytool is the JDK's, as it is the Kafka image's Java runtime's there.
    builder.environment().put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":"
        + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(150, TimeUnit.SECONDS), output);
    assertEquals(0, process.exitValue(), output);
  }

  private static KeyStore load(Path file, char[] password) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(file)) {
      store.load(in, password);
    }
    return store;
  }

  private static String read(Path directory, String file) throws IOException {
    return Files.readString(directory.resolve(file), StandardCharsets.UTF_8);
  }

  private static Properties properties(Path file) throws IOException {
    Properties properties = new Properties();
    try (InputStream in = Files.newInputStream(file)) {
      properties.load(in);
    }
    return properties;
  }
}
