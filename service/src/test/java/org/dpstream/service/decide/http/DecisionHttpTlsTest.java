package org.dpstream.service.decide.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.handler.ssl.util.SelfSignedCertificate;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.kafka.clients.producer.MockProducer;
import org.dpstream.service.config.ApiTlsConfig;
import org.dpstream.service.config.DeciderConfig;
import org.dpstream.service.serde.DpSerdes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The API over TLS, with certificates made by the test: bearer tokens over TLS, client certificates whose subject is
 * the caller, and either. No key is committed: Netty's {@link SelfSignedCertificate} makes them in a temporary
 * directory.
 */
class DecisionHttpTlsTest {

  private static final String DECIDE = "/v1/bandits/offers/decide";
  private static final String BODY = "{\"requestId\": \"q1\", \"context\": [0.5, -2]}";
  private static SelfSignedCertificate serverCertificate;
  private static SelfSignedCertificate clientCertificate;

  @TempDir Path work;
  private final String token = ApiTokens.newToken();
  private MockProducer<String, byte[]> producer;
  private DecisionHttpServer server;

  @BeforeAll
  static void makeCertificates() throws Exception {
    serverCertificate = new SelfSignedCertificate("localhost");
    clientCertificate = new SelfSignedCertificate("alice.example");
  }

  @AfterAll
  static void deleteCertificates() {
    serverCertificate.delete();
    clientCertificate.delete();
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private void start(String authentication, boolean clientCertificates) throws Exception {
    Path tokens = work.resolve("tokens");
    Files.writeString(tokens, ApiTokens.fileLine("alice", token) + "\n");
    DeciderConfig config = DeciderConfig.deciders(0, false)
        .withAuthentication(authentication, authentication.contains("bearer") ? tokens.toString() : null)
        .withTls(new ApiTlsConfig(serverCertificate.certificate().toString(),
            serverCertificate.privateKey().toString(),
            clientCertificates ? clientCertificate.certificate().toString() : null));
    OffersDecisions decisions = new OffersDecisions(true);
    producer = decisions.producer;
    server = DecisionHttpServer.start(decisions.service, ApiSecurity.of(config), "127.0.0.1", 0, 2);
  }

  private HttpResponse<String> post(HttpClient client, String authorization) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("https://localhost:" + server.port() + DECIDE))
        .POST(HttpRequest.BodyPublishers.ofString(BODY));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** A client that trusts the server's certificate and, if asked, presents the client certificate. */
  private static HttpClient client(boolean presentCertificate) throws Exception {
    KeyStore trusted = KeyStore.getInstance("PKCS12");
    trusted.load(null, null);
    trusted.setCertificateEntry("server", serverCertificate.cert());
    TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(trusted);
    KeyManagerFactory keys = null;
    if (presentCertificate) {
      KeyStore own = KeyStore.getInstance("PKCS12");
      own.load(null, null);
      own.setKeyEntry("client", clientCertificate.key(), new char[0], new Certificate[] {clientCertificate.cert()});
      keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(own, new char[0]);
    }
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys == null ? null : keys.getKeyManagers(), trust.getTrustManagers(), null);
    return HttpClient.newBuilder().sslContext(context).build();
  }

  /** The caller of the last decision written (dp.decisions' record names it). */
  private String lastCaller() {
    var sent = producer.history().get(producer.history().size() - 1);
    return DpSerdes.decisionResponse().decodeOrThrow(sent.value()).getCaller();
  }

  @Test
  void bearerTokensOverTls() throws Exception {
    start("bearer", false);
    HttpClient client = client(false);
    HttpResponse<String> decided = post(client, "Bearer " + token);
    assertEquals(200, decided.statusCode(), decided.body());
    assertEquals("alice", lastCaller());
    assertEquals(401, post(client, null).statusCode());
    // Plain HTTP to the TLS port gets no answer.
    assertThrows(IOException.class, () -> HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://localhost:" + server.port() + DECIDE)).POST(HttpRequest.BodyPublishers.ofString(BODY))
        .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString()));
  }

  @Test
  void aClientCertificatesSubjectIsTheCallerAndAClientWithoutOneIsRefusedInTheHandshake() throws Exception {
    start("mutual-tls", true);
    HttpResponse<String> decided = post(client(true), null);
    assertEquals(200, decided.statusCode(), decided.body());
    assertEquals("CN=alice.example", lastCaller());
    assertThrows(IOException.class, () -> post(client(false), "Bearer " + token));
  }

  @Test
  void withBothATokenOrACertificateAuthenticates() throws Exception {
    start("bearer-or-mutual-tls", true);
    assertEquals(200, post(client(false), "Bearer " + token).statusCode());
    assertEquals("alice", lastCaller());
    assertEquals(200, post(client(true), null).statusCode());
    assertEquals("CN=alice.example", lastCaller(), "another caller: its own request q1, decided afresh");
    assertEquals(401, post(client(false), null).statusCode());
    assertEquals(401, post(client(true), "Bearer not-a-token").statusCode(), "a wrong token is not rescued");
  }
}
