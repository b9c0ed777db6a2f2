package org.dpstream.service.decide.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.dpstream.service.bandit.Caller;
import org.dpstream.service.config.DeciderConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The API's authentication settings: what they require, and who a request's credentials make its caller. */
class ApiSecurityTest {

  @TempDir Path work;

  private static final DeciderConfig API = DeciderConfig.deciders(9401, true);

  private Path tokens(String... lines) throws Exception {
    Path file = work.resolve("tokens");
    Files.writeString(file, String.join("\n", lines) + "\n");
    return file;
  }

  private static String message(DeciderConfig config) {
    return assertThrows(IllegalArgumentException.class, () -> ApiSecurity.of(config)).getMessage();
  }

  @Test
  void anApiWithNothingConfiguredRefusesToStartNamingTheSetting() {
    String message = message(API);
    assertTrue(message.startsWith("decider.authentication is not set"), message);
    assertTrue(message.contains("bearer") && message.contains("mutual-tls") && message.contains("none"), message);
  }

  @Test
  void eachModeNeedsItsMaterialAndRefusesAnother() throws Exception {
    assertTrue(message(API.withAuthentication("bearer", null)).contains("needs a token file"));
    assertTrue(message(API.withAuthentication("mutual-tls", null)).contains("needs decider.tls"));
    assertTrue(message(API.withAuthentication("none", tokens("a sha256:" + "0".repeat(64)).toString()))
        .contains("takes no token file"));
    assertTrue(message(API.withAuthentication("bearer", work.resolve("missing").toString()))
        .startsWith("decider.tokensFile: the token file"));
    assertThrows(IllegalArgumentException.class, () -> API.withAuthentication("password", null));
  }

  @Test
  void aTokenFileImpliesBearerAndNoneIsOneCaller() throws Exception {
    String token = ApiTokens.newToken();
    ApiSecurity bearer = ApiSecurity.of(API.withAuthentication(null,
        tokens("# callers", "", ApiTokens.fileLine("alice", token)).toString()));
    assertEquals(new Caller("alice"), bearer.authenticate("Bearer " + token, null));
    assertEquals(new Caller("alice"), bearer.authenticate("bearer  " + token + " ", null), "RFC 6750: any case");
    assertNull(bearer.authenticate(null, null));
    assertNull(bearer.authenticate("Bearer " + token + "x", null));
    assertNull(bearer.authenticate("Basic " + token, null));
    assertNull(bearer.authenticate("Bearer ", null));
    assertNull(bearer.authenticate(null, "CN=alice"), "a certificate is not a token");
    assertTrue(bearer.acceptsBearer());

    ApiSecurity none = ApiSecurity.of(API.withAuthentication("none", null));
    assertSame(Caller.DEFAULT, none.authenticate(null, null));
    assertSame(Caller.DEFAULT, none.authenticate("Bearer whatever", null));
    assertFalse(none.acceptsBearer());
  }

  @Test
  void theEnvironmentMayNameTheTokenFileButNotAnotherOne() throws Exception {
    String file = tokens(ApiTokens.fileLine("alice", ApiTokens.newToken())).toString();
    DeciderConfig fromEnvironment = ApiSecurity.withTokensFileFromEnvironment(API,
        Map.of("DPSTREAM_API_TOKENS_FILE", file));
    assertEquals(file, fromEnvironment.tokensFile());
    ApiSecurity.of(fromEnvironment);
    assertSame(API, ApiSecurity.withTokensFileFromEnvironment(API, Map.of()));
    assertThrows(IllegalArgumentException.class, () -> ApiSecurity.withTokensFileFromEnvironment(
        API.withAuthentication("bearer", file), Map.of("DPSTREAM_API_TOKENS_FILE", file + ".other")));
  }

  @Test
  void aBadTokenFileNamesItsLineAndQuotesNoDigest() throws Exception {
    String digest = "ab".repeat(32);
    List<String> bad = List.of("alice " + digest, "alice sha256:" + digest.substring(2), "alice sha256:" + digest
        + " extra", "CN=alice sha256:" + digest, "sha256:" + digest);
    for (String line : bad) {
      String message = message(API.withAuthentication("bearer", tokens("# first", line).toString()));
      assertTrue(message.contains("line 2"), message);
      assertFalse(message.contains(digest.substring(0, 16)), "no digest quoted: " + message);
    }
    assertTrue(message(API.withAuthentication("bearer", tokens("a sha256:" + digest, "a sha256:" + "cd".repeat(32))
        .toString())).contains("named twice"));
    assertTrue(message(API.withAuthentication("bearer", tokens("a sha256:" + digest, "b sha256:" + digest)
        .toString())).contains("same token"));
    assertTrue(message(API.withAuthentication("bearer", tokens("# nobody").toString())).contains("names no caller"));
  }

  @Test
  void withBothATokenDecidesAndWithoutOneTheCertificatesSubject() {
    String token = ApiTokens.newToken();
    ApiSecurity both = ApiSecurity.withoutTls(ApiSecurity.Mode.BEARER_OR_MUTUAL_TLS,
        ApiTokens.of(List.of("alice"), List.of(token)));
    assertEquals(new Caller("alice"), both.authenticate("Bearer " + token, "CN=bob"));
    assertNull(both.authenticate("Bearer wrong", "CN=bob"), "a wrong token is not rescued by a certificate");
    assertEquals(new Caller("CN=bob,O=example"), both.authenticate(null, "CN=bob,O=example"));
    assertNull(both.authenticate(null, null));
    assertNull(both.authenticate(null, ""));
  }
}
