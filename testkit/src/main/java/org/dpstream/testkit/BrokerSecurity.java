package org.dpstream.testkit;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * The listeners, certificates and authorisation of a secured single node, the way a production cluster
 * is set up: every listener is TLS with certificates of a CA generated at start, clients authenticate with
 * SCRAM-SHA-512 (SASL_SSL) or their own certificate (mTLS), and KRaft's {@code StandardAuthorizer} denies
 * whatever no ACL allows. Two principals are super users: the node's own ({@code User:broker}, its
 * certificate on the inter-broker and controller listeners) and the test's administrator
 * ({@code User:admin}, a certificate on the TLS listener); every other principal gets only what ACLs
 * grant it.
 *
 * <p>Listeners: {@value #SASL_LISTENER} (SASL_SSL, SCRAM-SHA-512: the clients under test),
 * {@value #TLS_LISTENER} (SSL with required client certificates: the node itself, the admin and mTLS
 * clients) and the controller's (SSL with required client certificates). A certificate's principal is its
 * common name: {@code CN=dpstream} authenticates as {@code User:dpstream}.
 */
final class BrokerSecurity {

  static final String SASL_LISTENER = "CLIENT";
  static final String TLS_LISTENER = "INTERNAL";
  static final String BROKER = "broker";
  static final String ADMIN = "admin";
  static final String SCRAM_MECHANISM = "SCRAM-SHA-512";
  /** A certificate's principal is its CN ({@code CN=admin,...} is {@code User:admin}). */
  static final String PRINCIPAL_MAPPING = "RULE:^CN=([^,]+)(,.*)?$/$1/,DEFAULT";
  private static final String HOST = "127.0.0.1";
  private static final String STORE_TYPE = "PKCS12";

  private final Path directory;
  private final CertificateAuthority authority;
  /** One password for every store of this node; it never leaves the test's JVM and temporary directory. */
  private final char[] storePassword;
  private final Path trustStore;

  private BrokerSecurity(Path directory, CertificateAuthority authority, char[] storePassword, Path trustStore) {
    this.directory = directory;
    this.authority = authority;
    this.storePassword = storePassword;
    this.trustStore = trustStore;
  }

  /** A new CA, the trust store and the node's key store, in {@code directory}. */
  static BrokerSecurity create(Path directory) {
    CertificateAuthority authority = CertificateAuthority.create("dpstream test CA");
    char[] password = authority.newPassword();
    Path trustStore = directory.resolve("truststore.p12");
    authority.writeTrustStore(trustStore, password);
    BrokerSecurity security = new BrokerSecurity(directory, authority, password, trustStore);
    authority.writeKeyStore(BROKER, security.keyStore(BROKER), password);
    return security;
  }

  /** Replaces the plaintext listeners of {@link SingleNodeKraftConfig} with secured ones and turns on the authorizer. */
  void configure(Properties props, int saslPort, int tlsPort, int controllerPort) {
    String controller = SingleNodeKraftConfig.CONTROLLER_LISTENER;
    String listeners = SASL_LISTENER + "://" + HOST + ":" + saslPort + "," + TLS_LISTENER + "://" + HOST + ":" + tlsPort
        + "," + controller + "://" + HOST + ":" + controllerPort;
    props.put("listeners", listeners);
    props.put("advertised.listeners", listeners);
    props.put("listener.security.protocol.map",
        SASL_LISTENER + ":SASL_SSL," + TLS_LISTENER + ":SSL," + controller + ":SSL");
    props.put("inter.broker.listener.name", TLS_LISTENER);

    // The node's certificate on every listener; the same settings serve its own connections to itself.
    props.put("ssl.keystore.type", STORE_TYPE);
    props.put("ssl.keystore.location", keyStore(BROKER).toString());
    props.put("ssl.keystore.password", new String(storePassword));
    props.put("ssl.key.password", new String(storePassword));
    props.put("ssl.truststore.type", STORE_TYPE);
    props.put("ssl.truststore.location", trustStore.toString());
    props.put("ssl.truststore.password", new String(storePassword));
    props.put("ssl.principal.mapping.rules", PRINCIPAL_MAPPING);
    props.put(listenerKey(TLS_LISTENER, "ssl.client.auth"), "required");
    props.put(listenerKey(controller, "ssl.client.auth"), "required");

    props.put(listenerKey(SASL_LISTENER, "sasl.enabled.mechanisms"), SCRAM_MECHANISM);
    props.put(listenerKey(SASL_LISTENER, SCRAM_MECHANISM.toLowerCase(java.util.Locale.ROOT) + ".sasl.jaas.config"),
        "org.apache.kafka.common.security.scram.ScramLoginModule required;");

    props.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
    props.put("allow.everyone.if.no.acl.found", "false");
    props.put("super.users", "User:" + BROKER + ";User:" + ADMIN);
  }

  /** Settings of a client authenticating with a certificate issued now for {@code CN=<name>} on the TLS listener. */
  Map<String, String> certificateClient(String name, String tlsBootstrap) {
    Path keyStore = keyStore(name);
    authority.writeKeyStore(name, keyStore, storePassword);
    Map<String, String> settings = tls(tlsBootstrap, "SSL");
    settings.put("ssl.keystore.type", STORE_TYPE);
    settings.put("ssl.keystore.location", keyStore.toString());
    settings.put("ssl.keystore.password", new String(storePassword));
    settings.put("ssl.key.password", new String(storePassword));
    return settings;
  }

  /** Settings of a client authenticating as {@code user} with SCRAM-SHA-512 on the SASL_SSL listener. */
  Map<String, String> scramClient(String user, String password, String saslBootstrap) {
    Map<String, String> settings = tls(saslBootstrap, "SASL_SSL");
    settings.put("sasl.mechanism", SCRAM_MECHANISM);
    settings.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
        + user + "\" password=\"" + password + "\";");
    return settings;
  }

  /** A new random password (for a SCRAM user). */
  String newPassword() {
    return new String(authority.newPassword());
  }

  private Map<String, String> tls(String bootstrap, String protocol) {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("bootstrap.servers", bootstrap);
    settings.put("security.protocol", protocol);
    settings.put("ssl.truststore.type", STORE_TYPE);
    settings.put("ssl.truststore.location", trustStore.toString());
    settings.put("ssl.truststore.password", new String(storePassword));
    return settings;
  }

  private Path keyStore(String name) {
    return directory.resolve(name + ".p12");
  }

  private static String listenerKey(String listener, String key) {
    return "listener.name." + listener.toLowerCase(java.util.Locale.ROOT) + "." + key;
  }
}
