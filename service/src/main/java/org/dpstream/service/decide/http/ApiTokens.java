package org.dpstream.service.decide.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The decision API's bearer tokens: who each caller is, by the SHA-256 of its token. The file holds one caller a
 * line, {@code name sha256:HEX} (64 hex digits), blank lines and {@code #} comments aside, so it holds no usable
 * secret: only the callers know their tokens. Tokens must be random (at least 128 bits: {@link #newToken} gives 256);
 * an unsalted digest is then as good as a salted one, and a lookup needs no per-caller work factor.
 *
 * <p>A token is checked against every caller's digest with {@link MessageDigest#isEqual} (constant time) and no early
 * exit, so the work does not depend on which caller, if any, it belongs to. Names are letters, digits and
 * {@code . _ - @}: never {@code =}, which every certificate subject holds, so no token caller is ever a certificate
 * caller.
 */
public final class ApiTokens {

  /** The environment variable that names the token file when {@code decider.tokensFile} does not. */
  public static final String FILE_ENVIRONMENT_VARIABLE = "DPSTREAM_API_TOKENS_FILE";

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._@-]{1,128}");
  private static final String DIGEST_PREFIX = "sha256:";
  private static final HexFormat HEX = HexFormat.of();

  private final List<String> names;
  private final List<byte[]> digests;
  /** A digest no token has (the warm-up's, once it is over): compared like the others, never matched. */
  private static final byte[] NO_TOKEN = new byte[32];

  private ApiTokens(List<String> names, List<byte[]> digests) {
    this.names = List.copyOf(names);
    this.digests = List.copyOf(digests);
  }

  /**
   * Reads a token file.
   *
   * @param setting the setting that named it, for messages
   * @throws IllegalArgumentException naming the file and line of what is wrong (never quoting a digest)
   */
  static ApiTokens read(Path file, String setting) {
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException(setting + ": the token file " + file + " does not exist or is not a file");
    }
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      // Not the exception's message: a decoding error could quote the file's bytes.
      throw new IllegalArgumentException(setting + ": cannot read the token file " + file
          + " (unreadable, or not UTF-8 text)");
    }
    List<String> names = new ArrayList<>();
    List<byte[]> digests = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    Set<String> seenDigests = new HashSet<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String where = setting + ": " + file + " line " + (i + 1);
      String[] parts = line.split("\\s+");
      if (parts.length != 2 || !parts[1].startsWith(DIGEST_PREFIX)
          || parts[1].length() != DIGEST_PREFIX.length() + 64 || !isHex(parts[1].substring(DIGEST_PREFIX.length()))) {
        throw new IllegalArgumentException(where + " is not 'name sha256:<64 hex digits>'");
      }
      if (!NAME.matcher(parts[0]).matches()) {
        throw new IllegalArgumentException(where + ": a caller's name is 1 to 128 letters, digits, '.', '_', '-' or"
            + " '@'");
      }
      if (!seen.add(parts[0])) {
        throw new IllegalArgumentException(where + ": caller " + parts[0] + " is named twice");
      }
      String hex = parts[1].substring(DIGEST_PREFIX.length()).toLowerCase(java.util.Locale.ROOT);
      if (!seenDigests.add(hex)) {
        throw new IllegalArgumentException(where + ": two callers have the same token");
      }
      names.add(parts[0]);
      digests.add(HEX.parseHex(hex));
    }
    if (names.isEmpty()) {
      throw new IllegalArgumentException(setting + ": the token file " + file + " names no caller");
    }
    return new ApiTokens(names, digests);
  }

  /** The callers of these (name, token) pairs (tests, and tools that make their own tokens). */
  static ApiTokens of(List<String> names, List<String> tokens) {
    return new ApiTokens(names, tokens.stream().map(ApiTokens::digest).toList());
  }

  /**
   * The caller whose token this is, or null. Compares with every caller (and with {@code extra}, a digest that
   * belongs to no name here: the warm-up's, or {@link #NO_TOKEN}) in constant time, whatever matches.
   *
   * @param extraName what {@code extra} matching returns
   */
  String callerOf(String token, byte[] extra, String extraName) {
    byte[] presented = digest(token);
    String found = null;
    for (int i = 0; i < digests.size(); i++) {
      boolean match = MessageDigest.isEqual(presented, digests.get(i));
      found = match ? names.get(i) : found;
    }
    boolean extraMatch = MessageDigest.isEqual(presented, extra == null ? NO_TOKEN : extra);
    return extraMatch ? extraName : found;
  }

  int size() {
    return names.size();
  }

  /** A new random token: 256 bits from {@link SecureRandom}, base64url without padding (43 characters). */
  public static String newToken() {
    byte[] bits = new byte[32];
    new SecureRandom().nextBytes(bits);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bits);
  }

  /**
   * Writes a token file with one caller and a new token, and returns the token: for tools that are the API's only
   * client (the demo, the bench). The file holds only the token's digest.
   */
  public static String writeNewTokenFile(Path file, String callerName) throws IOException {
    String token = newToken();
    Files.writeString(file, "# dpstream decision API callers: name sha256:<SHA-256 of the token>\n"
        + fileLine(callerName, token) + "\n", StandardCharsets.UTF_8);
    return token;
  }

  /** The token file's line of caller {@code name} with {@code token}: {@code name sha256:HEX}. */
  public static String fileLine(String name, String token) {
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("a caller's name is 1 to 128 letters, digits, '.', '_', '-' or '@'");
    }
    return name + " " + DIGEST_PREFIX + HEX.formatHex(digest(token));
  }

  static byte[] digest(String token) {
    MessageDigest sha256 = SHA256.get();
    sha256.reset();
    return sha256.digest(token.getBytes(StandardCharsets.UTF_8));
  }

  /** One SHA-256 per thread (the API's event loops): every request digests its token, and getInstance is a lookup. */
  private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  });

  private static boolean isHex(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (Character.digit(text.charAt(i), 16) < 0) {
        return false;
      }
    }
    return true;
  }
}
