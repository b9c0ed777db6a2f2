package org.dpstream.service.config;

/**
 * The {@code decider.tls:} section: TLS on the decision API, from PEM files (never on the command line).
 *
 * @param certificateChain PEM file of the server's certificate chain (its own certificate first)
 * @param privateKey PEM file of the server's private key in PKCS#8 ({@code -----BEGIN PRIVATE KEY-----})
 * @param clientCertificateAuthorities PEM file of the certificate authorities that sign client certificates: with
 *     {@code authentication: mutual-tls} (or {@code bearer-or-mutual-tls}), a client certificate they sign
 *     authenticates its subject as the caller
 */
public record ApiTlsConfig(String certificateChain, String privateKey, String clientCertificateAuthorities) {

  public ApiTlsConfig {
    if ((certificateChain == null) != (privateKey == null)) {
      throw new IllegalArgumentException("decider.tls needs both certificateChain and privateKey");
    }
    if (clientCertificateAuthorities != null && certificateChain == null) {
      throw new IllegalArgumentException("decider.tls.clientCertificateAuthorities needs the server's certificateChain"
          + " and privateKey (mutual TLS is TLS)");
    }
  }

  /** Whether the API serves TLS. */
  public boolean enabled() {
    return certificateChain != null;
  }
}
