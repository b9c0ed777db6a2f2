package org.dpstream.service.config;

/**
 * The {@code decider:} section: how the bandits' decisions are made (docs/bandit-decider.md).
 *
 * @param inTopology true: decide inside the learning transaction as before (contexts from dp.contexts,
 *     decisions visible at commit); default false: deciders follow dp.releases and decide at once
 * @param httpPort port of the decision API ({@code POST /v1/bandits/{id}/decide}, {@code /reward});
 *     default 9401; 0 picks a free port; -1 serves no API
 * @param httpThreads event-loop threads of the API, which read the requests, decide and write the answers; default 0:
 *     one per available processor; a configured count is honoured
 * @param contexts decide the contexts on dp.contexts too (the Kafka path); default true
 * @param memory most decisions remembered per instance to answer a repeated request id with the same
 *     decision; default 200000. The memory is allocated at start, whole, as primitive arrays: about 65 bytes a
 *     decision plus 8 to 16 bytes of hash index (the index is the power of two at least twice {@code memory}, 4
 *     bytes a slot), so 15 MB at the default; at most 2^29
 * @param httpAddress the address the API listens on (a host name or IP address); default: every interface
 * @param authentication how the API's callers authenticate: {@code bearer} (a token of {@code tokensFile}),
 *     {@code mutual-tls} (a client certificate signed by {@code tls.clientCertificateAuthorities}; its subject is the
 *     caller), {@code bearer-or-mutual-tls} (either), or {@code none} (every request is one caller, the default
 *     scope: only for a single trusted client, such as a gateway that authenticates for it). Unset: {@code bearer}
 *     if a token file is named, {@code mutual-tls} if client certificate authorities are, both if both; with the API
 *     on and neither named the service refuses to start
 * @param tokensFile the bearer tokens' file ({@code name sha256:HEX} lines: each caller's name and the SHA-256 of
 *     its token, so the file holds no usable secret); or the environment variable {@code DPSTREAM_API_TOKENS_FILE}
 * @param tls TLS on the API ({@link ApiTlsConfig}); default none
 */
public record DeciderConfig(Boolean inTopology, Integer httpPort, Integer httpThreads, Boolean contexts,
    Integer memory, String httpAddress, String authentication, String tokensFile, ApiTlsConfig tls) {

  /** The values {@code authentication} accepts. */
  public static final java.util.List<String> AUTHENTICATIONS =
      java.util.List.of("bearer", "mutual-tls", "bearer-or-mutual-tls", "none");

  public static final int DEFAULT_HTTP_PORT = 9401;
  /** The largest {@code memory}: its hash index, twice as large, must still fit one Java array. */
  public static final int MAX_MEMORY = 1 << 29;
  public static final DeciderConfig DEFAULT = new DeciderConfig(null, null, null, null, null);

  /** Without the API's address, authentication and TLS settings (their defaults). */
  public DeciderConfig(Boolean inTopology, Integer httpPort, Integer httpThreads, Boolean contexts, Integer memory) {
    this(inTopology, httpPort, httpThreads, contexts, memory, null, null, null, null);
  }

  public DeciderConfig {
    inTopology = inTopology != null && inTopology;
    httpPort = httpPort == null ? DEFAULT_HTTP_PORT : httpPort;
    httpThreads = httpThreads == null ? 0 : httpThreads;
    contexts = contexts == null || contexts;
    memory = memory == null ? 200_000 : memory;
    if (httpPort < -1 || httpPort > 65_535) {
      throw new IllegalArgumentException("decider.httpPort must be -1 (no API), 0 (any free port) or a port, got "
          + httpPort);
    }
    if (httpThreads < 0) {
      throw new IllegalArgumentException("decider.httpThreads must be 0 (one per processor) or more, got "
          + httpThreads);
    }
    if (memory < 1 || memory > MAX_MEMORY) {
      throw new IllegalArgumentException("decider.memory must be in 1.." + MAX_MEMORY + ", got " + memory);
    }
    if (httpAddress != null && httpAddress.isBlank()) {
      throw new IllegalArgumentException("decider.httpAddress must name a host or address (leave it out for every"
          + " interface)");
    }
    if (authentication != null && !AUTHENTICATIONS.contains(authentication)) {
      throw new IllegalArgumentException("decider.authentication must be one of " + String.join(", ", AUTHENTICATIONS)
          + ", got " + authentication);
    }
    if (tokensFile != null && tokensFile.isBlank()) {
      throw new IllegalArgumentException("decider.tokensFile must name a file");
    }
    tls = tls == null ? new ApiTlsConfig(null, null, null) : tls;
  }

  /** Whether the decision API is served. */
  public boolean servesApi() {
    return !inTopology && httpPort >= 0;
  }

  /** The same section with the API's callers authenticated as {@code newAuthentication} says, with these tokens. */
  public DeciderConfig withAuthentication(String newAuthentication, String newTokensFile) {
    return new DeciderConfig(inTopology, httpPort, httpThreads, contexts, memory, httpAddress, newAuthentication,
        newTokensFile, tls);
  }

  /** The same section with this TLS. */
  public DeciderConfig withTls(ApiTlsConfig newTls) {
    return new DeciderConfig(inTopology, httpPort, httpThreads, contexts, memory, httpAddress, authentication,
        tokensFile, newTls);
  }

  /** The same section with the API on this address. */
  public DeciderConfig withHttpAddress(String newHttpAddress) {
    return new DeciderConfig(inTopology, httpPort, httpThreads, contexts, memory, newHttpAddress, authentication,
        tokensFile, tls);
  }

  /** Decisions made by the topology inside its transaction, no deciders (the behaviour before the deciders). */
  public static DeciderConfig decidingInTopology() {
    return new DeciderConfig(true, -1, null, false, null);
  }

  /**
   * Deciders with the API on {@code port} (0: any free port; -1: none) and the Kafka path on or off; an API needs
   * its authentication too ({@link #withAuthentication}).
   */
  public static DeciderConfig deciders(int port, boolean contexts) {
    return new DeciderConfig(false, port, null, contexts, null);
  }
}
