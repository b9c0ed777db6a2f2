package org.dpstream.testkit;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throwaway certificate authority for a secured test broker: a self-signed CA and certificates it
 * issues, each for {@code CN=<name>} and valid for 127.0.0.1 and localhost (so clients keep hostname
 * verification on), written as PKCS12 key stores. Keys are EC P-256, generated in memory at each start
 * (a few milliseconds); nothing is committed or downloaded.
 *
 * <p>BouncyCastle builds the certificates: the JDK can generate and store keys but has no public API to
 * sign a certificate (keytool would be one child JVM per step). It is an optional dependency of the
 * testkit, so the demo's and the CLI's jars do not carry it.
 */
final class CertificateAuthority {

  private static final String KEY_ALGORITHM = "EC";
  private static final String CURVE = "secp256r1";
  private static final String SIGNATURE = "SHA256withECDSA";
  private static final Duration VALIDITY = Duration.ofDays(2);
  private static final String STORE_TYPE = "PKCS12";

  private final SecureRandom random = new SecureRandom();
  private final AtomicLong serials = new AtomicLong(1);
  private final KeyPair caKeys;
  private final X509Certificate caCertificate;

  private CertificateAuthority(KeyPair caKeys, X509Certificate caCertificate) {
    this.caKeys = caKeys;
    this.caCertificate = caCertificate;
  }

  /** A new CA with its own key, {@code CN=<name>}. */
  static CertificateAuthority create(String name) {
    try {
      KeyPair keys = generateKeyPair();
      X500Name subject = new X500Name("CN=" + name);
      Instant now = Instant.now();
      X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(subject, BigInteger.ONE,
          Date.from(now.minus(Duration.ofMinutes(5))), Date.from(now.plus(VALIDITY)), subject, keys.getPublic());
      JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(0));
      builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
      builder.addExtension(Extension.subjectKeyIdentifier, false, extensions.createSubjectKeyIdentifier(keys.getPublic()));
      return new CertificateAuthority(keys, sign(builder, keys.getPrivate()));
    } catch (GeneralSecurityException | IOException | OperatorCreationException e) {
      throw new IllegalStateException("could not create the test certificate authority", e);
    }
  }

  /**
   * Issues a certificate for {@code CN=<commonName>}, usable by a server on 127.0.0.1/localhost and as a
   * client certificate, and writes it with its key to a PKCS12 key store at {@code file}.
   */
  void writeKeyStore(String commonName, Path file, char[] password) {
    try {
      KeyPair keys = generateKeyPair();
      Instant now = Instant.now();
      X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(caCertificate,
          BigInteger.valueOf(serials.incrementAndGet()), Date.from(now.minus(Duration.ofMinutes(5))),
          Date.from(now.plus(VALIDITY)), new X500Name("CN=" + commonName), keys.getPublic());
      JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
      builder.addExtension(Extension.keyUsage, true,
          new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyAgreement));
      builder.addExtension(Extension.extendedKeyUsage, false,
          new ExtendedKeyUsage(new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}));
      builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
          new GeneralName(GeneralName.iPAddress, "127.0.0.1"), new GeneralName(GeneralName.dNSName, "localhost")}));
      builder.addExtension(Extension.authorityKeyIdentifier, false,
          extensions.createAuthorityKeyIdentifier(caCertificate));
      X509Certificate certificate = sign(builder, caKeys.getPrivate());
      KeyStore store = emptyStore();
      store.setKeyEntry(commonName, keys.getPrivate(), password, new Certificate[] {certificate, caCertificate});
      save(store, file, password);
    } catch (GeneralSecurityException | IOException | OperatorCreationException e) {
      throw new IllegalStateException("could not issue a test certificate for CN=" + commonName, e);
    }
  }

  /** Writes a PKCS12 trust store holding only this CA's certificate. */
  void writeTrustStore(Path file, char[] password) {
    try {
      KeyStore store = emptyStore();
      store.setCertificateEntry("ca", caCertificate);
      save(store, file, password);
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("could not write the test trust store", e);
    }
  }

  /** The CA's certificate (tests check what it signed). */
  X509Certificate certificate() {
    return caCertificate;
  }

  /** A fresh random password for a store, as characters a properties file and JAAS take verbatim. */
  char[] newPassword() {
    byte[] bytes = new byte[18];
    random.nextBytes(bytes);
    return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(bytes).toCharArray();
  }

  private static KeyPair generateKeyPair() throws GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance(KEY_ALGORITHM);
    generator.initialize(new ECGenParameterSpec(CURVE));
    return generator.generateKeyPair();
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey key)
      throws OperatorCreationException, GeneralSecurityException {
    return new JcaX509CertificateConverter().getCertificate(builder.build(new JcaContentSignerBuilder(SIGNATURE).build(key)));
  }

  private static KeyStore emptyStore() throws GeneralSecurityException, IOException {
    KeyStore store = KeyStore.getInstance(STORE_TYPE);
    store.load(null, null);
    return store;
  }

  private static void save(KeyStore store, Path file, char[] password) throws GeneralSecurityException {
    try (OutputStream out = Files.newOutputStream(file)) {
      store.store(out, password);
    } catch (IOException e) {
      throw new UncheckedIOException("could not write " + file, e);
    }
  }
}
