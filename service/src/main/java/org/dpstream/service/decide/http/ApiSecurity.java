package org.dpstream.service.decide.http;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import javax.net.ssl.SSLException;
import org.dpstream.service.bandit.Caller;
import org.dpstream.service.config.ApiTlsConfig;
import org.dpstream.service.config.DeciderConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may call the decision API and how it is reached: the authentication of callers ({@code decider.authentication}:
 * bearer tokens, client certificates, both, or none), and TLS ({@code decider.tls}). Built from the configuration and
 * the files it names, before the API listens; a missing or unreadable setting is an {@link IllegalArgumentException}
 * that names it (the service does not start).
 *
 * <p>Request ids are scoped to the authenticated caller ({@link Caller}), so a caller's answers depend on its own
 * requests only (docs/bandit-privacy.md, "Deciding from the releases"). Under {@code none} every request is the
 * default scope's, one caller: for a single trusted client (a gateway that authenticates for it), never for several
 * clients who must not learn about each other.
 */
public final class ApiSecurity {

  private static final Logger LOG = LoggerFactory.getLogger(ApiSecurity.class);

  /** How a caller proves who it is. */
  enum Mode {
    BEARER(true, false),
    MUTUAL_TLS(false, true),
    BEARER_OR_MUTUAL_TLS(true, true),
    NONE(false, false);

    final boolean bearer;
    final boolean certificates;

    Mode(boolean bearer, boolean certificates) {
      this.bearer = bearer;
      this.certificates = certificates;
    }

    static Mode of(String setting) {
      return valueOf(setting.toUpperCase(Locale.ROOT).replace('-', '_'));
    }
  }

  /** The warm-up's caller: its requests go to a bandit no configuration holds (404), so it never decides. */
  static final String WARM_UP_CALLER = "dpstream-warm-up";

  private final Mode mode;
  private final ApiTokens tokens;
  private final SslContext tls;
  /** The SHA-256 of the warm-up's token until the warm-up ends, then null (no token matches). */
  private volatile byte[] warmUpDigest;

  private ApiSecurity(Mode mode, ApiTokens tokens, SslContext tls) {
    this.mode = mode;
    this.tokens = tokens;
    this.tls = tls;
  }

  /** Every request is the default scope's, over plain HTTP ({@code authentication: none} without TLS). */
  public static ApiSecurity none() {
    return new ApiSecurity(Mode.NONE, null, null);
  }

  /** {@code mode} with these tokens, over plain HTTP (tests). */
  static ApiSecurity withoutTls(Mode mode, ApiTokens tokens) {
    return new ApiSecurity(mode, tokens, null);
  }

  /**
   * The {@code decider:} section with the token file that {@value ApiTokens#FILE_ENVIRONMENT_VARIABLE} names, when
   * the section names none (the command line's environment; the service itself reads only its configuration).
   *
   * @throws IllegalArgumentException if both name a file, and not the same
   */
  public static DeciderConfig withTokensFileFromEnvironment(DeciderConfig config, Map<String, String> environment) {
    String fromEnvironment = environment.get(ApiTokens.FILE_ENVIRONMENT_VARIABLE);
    if (fromEnvironment == null || fromEnvironment.isBlank()) {
      return config;
    }
    if (config.tokensFile() != null && !config.tokensFile().equals(fromEnvironment)) {
      throw new IllegalArgumentException("decider.tokensFile and " + ApiTokens.FILE_ENVIRONMENT_VARIABLE
          + " name different files: set one");
    }
    return config.withAuthentication(config.authentication(), fromEnvironment);
  }

  /**
   * The security the {@code decider:} section asks for, its files read and checked.
   *
   * @throws IllegalArgumentException naming the setting that is missing, contradictory or whose file is unusable
   */
  public static ApiSecurity of(DeciderConfig config) {
    String tokensFile = config.tokensFile();
    ApiTlsConfig tlsConfig = config.tls();
    boolean authorities = tlsConfig.clientCertificateAuthorities() != null;
    Mode mode;
    if (config.authentication() != null) {
      mode = Mode.of(config.authentication());
    } else if (tokensFile != null || authorities) {
      mode = tokensFile != null && authorities ? Mode.BEARER_OR_MUTUAL_TLS : tokensFile != null ? Mode.BEARER
          : Mode.MUTUAL_TLS;
    } else {
      throw new IllegalArgumentException("decider.authentication is not set, and the decision API (decider.httpPort "
          + config.httpPort() + ") must know its callers: set decider.authentication to bearer (with"
          + " decider.tokensFile or " + ApiTokens.FILE_ENVIRONMENT_VARIABLE + "), mutual-tls (with decider.tls), or"
          + " none (every request is one caller: only for a single trusted client behind a gateway); or serve no API"
          + " (decider.httpPort: -1)");
    }
    if (mode.bearer && tokensFile == null) {
      throw new IllegalArgumentException("decider.authentication: " + config.authentication() + " needs a token file:"
          + " decider.tokensFile or " + ApiTokens.FILE_ENVIRONMENT_VARIABLE);
    }
    if (mode.certificates && !authorities) {
      throw new IllegalArgumentException("decider.authentication: " + config.authentication() + " needs"
          + " decider.tls (certificateChain, privateKey and clientCertificateAuthorities)");
    }
    if (!mode.bearer && tokensFile != null) {
      throw new IllegalArgumentException("decider.authentication: " + config.authentication() + " takes no token"
          + " file, but one is named (decider.tokensFile or " + ApiTokens.FILE_ENVIRONMENT_VARIABLE + ")");
    }
    if (!mode.certificates && authorities) {
      throw new IllegalArgumentException("decider.authentication: " + config.authentication() + " takes no client"
          + " certificates, but decider.tls.clientCertificateAuthorities is set");
    }
    ApiTokens tokens = mode.bearer ? ApiTokens.read(Path.of(tokensFile), "decider.tokensFile") : null;
    SslContext tls = tlsConfig.enabled() ? sslContext(tlsConfig, mode) : null;
    ApiSecurity security = new ApiSecurity(mode, tokens, tls);
    security.logWarnings();
    return security;
  }

  private static SslContext sslContext(ApiTlsConfig config, Mode mode) {
    File chain = readable(config.certificateChain(), "decider.tls.certificateChain");
    File key = readable(config.privateKey(), "decider.tls.privateKey");
    try {
      SslContextBuilder builder = SslContextBuilder.forServer(chain, key);
      if (mode.certificates) {
        builder.trustManager(readable(config.clientCertificateAuthorities(),
            "decider.tls.clientCertificateAuthorities"));
        // Without the bearer alternative a connection without a client certificate is refused in the handshake.
        builder.clientAuth(mode.bearer ? ClientAuth.OPTIONAL : ClientAuth.REQUIRE);
      }
      return builder.build();
    } catch (SSLException | IllegalArgumentException e) {
      // Netty's messages name the file and what it could not parse, never the key's bytes.
      throw new IllegalArgumentException("decider.tls: cannot use the certificate chain " + chain + " and the"
          + " PKCS#8 private key " + key + (mode.certificates ? " with the client certificate authorities "
          + config.clientCertificateAuthorities() : "") + ": " + e.getMessage());
    }
  }

  private static File readable(String path, String setting) {
    Path file = Path.of(path);
    if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
      throw new IllegalArgumentException(setting + ": " + path + " is not a readable file");
    }
    return file.toFile();
  }

  private void logWarnings() {
    if (mode == Mode.NONE) {
      LOG.warn("decision API: authentication none: every request is one caller, so request ids are shared by"
          + " whoever reaches the API; serve it only to a single trusted client");
    } else if (mode.bearer && tls == null) {
      LOG.warn("decision API: bearer tokens over plain HTTP: serve it behind TLS (decider.tls, or a gateway that"
          + " terminates TLS on this host)");
    }
  }

  /** TLS of the API, or null for plain HTTP. */
  SslContext tls() {
    return tls;
  }

  /** Whether callers present bearer tokens (the 401's {@code WWW-Authenticate} says so). */
  boolean acceptsBearer() {
    return mode.bearer;
  }

  /**
   * The caller of a request, or null if it did not authenticate. With a bearer token ({@code Authorization:
   * Bearer ...}) the token decides, a client certificate notwithstanding; without one, the certificate's subject.
   *
   * @param authorization the request's {@code Authorization} header, or null
   * @param certificateSubject the connection's verified client certificate's subject (RFC 2253), or null
   */
  Caller authenticate(String authorization, String certificateSubject) {
    return switch (mode) {
      case NONE -> Caller.DEFAULT;
      case MUTUAL_TLS -> certificateCaller(certificateSubject);
      case BEARER -> tokenCaller(authorization);
      case BEARER_OR_MUTUAL_TLS -> authorization != null ? tokenCaller(authorization)
          : certificateCaller(certificateSubject);
    };
  }

  private Caller tokenCaller(String authorization) {
    String token = bearerToken(authorization);
    if (token == null) {
      return null;
    }
    String name = tokens.callerOf(token, warmUpDigest, WARM_UP_CALLER);
    return name == null ? null : new Caller(name);
  }

  private static Caller certificateCaller(String subject) {
    // A subject with NUL cannot be a caller (Caller); an empty one names no one.
    return subject == null || subject.isEmpty() || subject.indexOf('\u0000') >= 0 ? null : new Caller(subject);
  }

  /** The token of {@code Bearer <token>} (RFC 6750: the scheme in any case), or null. */
  static String bearerToken(String authorization) {
    if (authorization == null || authorization.length() < 8
        || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return null;
    }
    String token = authorization.substring(7).strip();
    return token.isEmpty() ? null : token;
  }

  /**
   * A token for the deciders' warm-up to call its own API with over plain HTTP, valid until {@link #endWarmUp};
   * null when the warm-up cannot call the API (TLS, or certificates only): it then rehearses decisions without it.
   */
  public String startWarmUp() {
    if (tls != null || !(mode == Mode.NONE || mode.bearer)) {
      return null;
    }
    if (mode == Mode.NONE) {
      return "";
    }
    String token = ApiTokens.newToken();
    warmUpDigest = ApiTokens.digest(token);
    return token;
  }

  /** From now on the warm-up's token is refused like any unknown token. */
  public void endWarmUp() {
    warmUpDigest = null;
  }
}
