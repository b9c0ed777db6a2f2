package org.dpstream.testkit;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.errors.SaslAuthenticationException;

/**
 * What a test does on a secured {@link EmbeddedKafka} as its administrator: make client identities
 * (SCRAM users through the Admin API, certificates from the node's CA) and grant or revoke ACLs, each
 * call returning only once the broker applies the change (credentials and ACLs travel through the
 * metadata log, so the broker takes them up shortly after the controller accepted them).
 */
final class SecuredAccess {

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]+");
  private static final Duration APPLIED_TIMEOUT = Duration.ofSeconds(30);
  /** Kafka's minimum for SCRAM-SHA-512: each login costs this many hash rounds on both sides. */
  private static final int SCRAM_ITERATIONS = 4096;

  private final BrokerSecurity security;
  private final String saslBootstrap;
  private final String tlsBootstrap;
  private final Map<String, String> admin;

  SecuredAccess(BrokerSecurity security, String saslBootstrap, String tlsBootstrap) {
    this.security = security;
    this.saslBootstrap = saslBootstrap;
    this.tlsBootstrap = tlsBootstrap;
    this.admin = security.certificateClient(BrokerSecurity.ADMIN, tlsBootstrap);
  }

  /** The administrator's client settings (a super user). */
  Map<String, String> admin() {
    return admin;
  }

  ClientIdentity certificateUser(String name) {
    return new ClientIdentity("User:" + checked(name), security.certificateClient(name, tlsBootstrap));
  }

  ClientIdentity scramUser(String name) {
    String password = security.newPassword();
    asAdmin("create the SCRAM user " + checked(name), client -> client.alterUserScramCredentials(List.of(
        new UserScramCredentialUpsertion(name, new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, SCRAM_ITERATIONS),
            password))).all().get(APPLIED_TIMEOUT.toSeconds(), TimeUnit.SECONDS));
    ClientIdentity identity = new ClientIdentity("User:" + name, security.scramClient(name, password, saslBootstrap));
    awaitLogin(identity);
    return identity;
  }

  /** Retries a login until the broker knows the new credential. */
  private static void awaitLogin(ClientIdentity identity) {
    Map<String, Object> settings = new HashMap<>(identity.clientConfig());
    settings.put("default.api.timeout.ms", 10_000);
    settings.put("request.timeout.ms", 5_000);
    long deadline = System.nanoTime() + APPLIED_TIMEOUT.toNanos();
    while (true) {
      try (Admin client = Admin.create(settings)) {
        client.describeCluster().clusterId().get(10, TimeUnit.SECONDS);
        return;
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof SaslAuthenticationException) || System.nanoTime() > deadline) {
          throw new IllegalStateException(identity + " cannot log in", e.getCause());
        }
      } catch (TimeoutException e) {
        throw new IllegalStateException(identity + " cannot log in within 10 s", e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while logging in as " + identity, e);
      }
      sleep();
    }
  }

  void grant(Collection<AclBinding> acls) {
    asAdmin("create ACLs " + acls, client -> {
      client.createAcls(acls).all().get(APPLIED_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      awaitApplied(client, acls, true);
    });
  }

  void awaitAcls(Collection<AclBinding> acls) {
    asAdmin("see the ACLs " + acls + " applied", client -> awaitApplied(client, acls, true));
  }

  void revoke(Collection<AclBinding> acls) {
    asAdmin("delete ACLs " + acls, client -> {
      client.deleteAcls(acls.stream().map(AclBinding::toFilter).toList()).all()
          .get(APPLIED_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      awaitApplied(client, acls, false);
    });
  }

  /** A call of the administrator's admin client. */
  private interface AdminCall {
    void run(Admin client) throws ExecutionException, TimeoutException, InterruptedException;
  }

  /** Runs {@code call} with a new admin client of the administrator, failing with "could not {@code what}". */
  private void asAdmin(String what, AdminCall call) {
    try (Admin client = adminClient()) {
      call.run(client);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("could not " + what, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted: could not " + what, e);
    }
  }

  /** Waits until the broker's authorizer (which answers DescribeAcls) holds all, or none, of {@code acls}. */
  private static void awaitApplied(Admin client, Collection<AclBinding> acls, boolean present)
      throws ExecutionException, TimeoutException, InterruptedException {
    long deadline = System.nanoTime() + APPLIED_TIMEOUT.toNanos();
    while (true) {
      Set<AclBinding> current = new HashSet<>(client.describeAcls(AclBindingFilter.ANY).values()
          .get(APPLIED_TIMEOUT.toSeconds(), TimeUnit.SECONDS));
      boolean applied = present ? current.containsAll(acls) : acls.stream().noneMatch(current::contains);
      if (applied) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new TimeoutException("the broker did not apply the ACL change within " + APPLIED_TIMEOUT);
      }
      sleep();
    }
  }

  private Admin adminClient() {
    return Admin.create(new HashMap<>(admin));
  }

  private static String checked(String name) {
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("a test principal's name is [A-Za-z0-9._-]+, got '" + name + "'");
    }
    return name;
  }

  private static void sleep() {
    try {
      Thread.sleep(50);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
