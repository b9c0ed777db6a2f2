package org.dpstream.service.decide.http;

import com.fasterxml.jackson.core.JsonParseException;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.dpstream.schemas.DecisionResponse;
import org.dpstream.service.bandit.BanditRejection;
import org.dpstream.service.bandit.Caller;
import org.dpstream.service.decide.Decider;
import org.dpstream.service.decide.DeciderMetrics;
import org.dpstream.service.decide.producer.DecisionService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the decision API answers a request, whatever carries it (the HTTP framing is {@link DecisionApiHandler}'s):
 * the route, the body's fields, the decision service's verdict, as a status and a JSON body. The semantics are
 * those of {@link DecisionHttpServer}'s documentation. It never waits: a write's outcome is only looked at when
 * it has already failed (nothing handed to the producer), otherwise the answer is given at once.
 */
final class DecisionApi {

  private static final Logger LOG = LoggerFactory.getLogger(DecisionApi.class);

  private final DecisionService decisions;

  DecisionApi(DecisionService decisions) {
    this.decisions = decisions;
  }

  /** The answer to a request without valid credentials: always these bytes, whatever the request asked. */
  static final String UNAUTHENTICATED = "UNAUTHENTICATED";
  private static final String UNAUTHENTICATED_MESSAGE =
      "the decision API needs a valid bearer token or client certificate";

  /**
   * Answers one request: writes its JSON answer into {@code out} and returns its status.
   *
   * @param caller the authenticated caller, or null: then 401, before anything else is looked at (the path, the
   *     bandit, the body), so the answer and the work are the same whatever the request names
   * @param body the request's body, or null when it was over {@link DecisionHttpServer#MAX_BODY_BYTES}
   * @param began when the request arrived ({@link System#nanoTime()}), for the latency metric
   */
  int answer(Caller caller, HttpMethod method, String uri, ByteBuf body, ByteBuf out, long began) {
    if (caller == null) {
      return error(out, 401, UNAUTHENTICATED, UNAUTHENTICATED_MESSAGE);
    }
    int mark = out.writerIndex();
    try {
      return route(caller, method, uri, body, out, began);
    } catch (RuntimeException e) {
      // Never a stopped server: anything unexpected is this request's 500, the next request is served.
      // The class only: a message could quote the request's data.
      LOG.warn("decision API: a request failed with {}", e.getClass().getName());
      out.writerIndex(mark);
      return error(out, 500, "INTERNAL_ERROR", e.getClass().getSimpleName());
    }
  }

  private int route(Caller caller, HttpMethod method, String uri, ByteBuf body, ByteBuf out, long began) {
    String path = path(uri);
    if (path == null) {
      return error(out, 400, "BAD_REQUEST", "the request target is not a valid path");
    }
    boolean decide = path.endsWith("/decide");
    int slash = path.lastIndexOf('/');
    if (!path.startsWith(DecisionHttpServer.PREFIX) || !decide && !path.endsWith("/reward")
        || slash <= DecisionHttpServer.PREFIX.length()) {
      return error(out, 404, "NOT_FOUND", "POST /v1/bandits/{id}/decide or /v1/bandits/{id}/reward");
    }
    if (!HttpMethod.POST.equals(method)) {
      return error(out, 405, "METHOD_NOT_ALLOWED", "only POST");
    }
    if (body == null) {
      return error(out, 400, "TOO_LARGE", "the body is larger than " + DecisionHttpServer.MAX_BODY_BYTES + " bytes");
    }
    String banditId = path.substring(DecisionHttpServer.PREFIX.length(), slash);
    ApiRequestBody fields;
    try {
      fields = ApiRequestBody.parse(body, decide ? dimension(banditId) : 0);
    } catch (JsonParseException e) {
      return error(out, 400, "UNDECODABLE", "the body is not JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      return error(out, 400, "UNDECODABLE", "the body is not JSON");
    }
    if (!fields.object) {
      return error(out, 400, "BAD_REQUEST", "the body must be a JSON object");
    }
    return decide ? decide(caller, banditId, fields, out, began) : reward(caller, banditId, fields, out);
  }

  private int decide(Caller caller, String banditId, ApiRequestBody body, ByteBuf out, long began) {
    String requestId = body.requestId;
    if (requestId == null || !body.hasContext || !body.contextIsArray) {
      return error(out, 400, "BAD_REQUEST", "the body must be {\"requestId\": \"...\", \"context\": [numbers]}");
    }
    if (body.firstNonNumber >= 0) {
      return error(out, 400, "WRONG_TYPE", "context[" + body.firstNonNumber + "] is not a number");
    }
    List<Double> context = body.context;
    DecisionService.Handed decided;
    try {
      decided = decisions.decideAndHand(banditId, caller, requestId, context, body.userId, System.currentTimeMillis(),
          false);
    } catch (Decider.Refused refused) {
      return error(out, status(refused), refused.code(), refused.getMessage());
    }
    // Answered once handed to the producer, not after its acknowledgement (docs/bandit-decider.md): only a write
    // that failed at once (nothing handed) is refused.
    if (decided.written().isCompletedExceptionally()) {
      return writeRefused(out, decided.written(), requestId);
    }
    DecisionResponse response = decided.response();
    JsonAnswers.decision(out, response);
    decisions.metrics().decided(banditId, DeciderMetrics.Path.HTTP, response.getPhase(), System.nanoTime() - began);
    return 200;
  }

  private int reward(Caller caller, String banditId, ApiRequestBody body, ByteBuf out) {
    String requestId = body.requestId;
    if (requestId == null || !body.hasReward || !body.rewardIsNumber) {
      return error(out, 400, "BAD_REQUEST", "the body must be {\"requestId\": \"...\", \"reward\": number}");
    }
    CompletableFuture<Void> written;
    try {
      written = decisions.reward(banditId, caller, requestId, body.reward, System.currentTimeMillis());
    } catch (Decider.Refused refused) {
      return error(out, status(refused), refused.code(), refused.getMessage());
    }
    // As a decision: answered once handed to the producer (or queued behind its decision's write), not after
    // the acknowledgement; only what failed at once (its decision's log write failed, nothing handed) is refused.
    if (written.isCompletedExceptionally()) {
      return writeRefused(out, written, requestId);
    }
    JsonAnswers.reward(out, requestId);
    return 200;
  }

  /** The answer to a write that has already failed: 409 if its decision was not logged, else 503. */
  private static int writeRefused(ByteBuf out, CompletableFuture<?> failed, String requestId) {
    Throwable cause;
    try {
      failed.getNow(null);
      throw new IllegalStateException("a failed write expected");
    } catch (CompletionException e) {
      cause = e.getCause();
    } catch (CancellationException e) {
      cause = e;
    }
    if (cause instanceof DecisionService.DecisionNotLogged notLogged) {
      return error(out, 409, DecisionService.DecisionNotLogged.REASON, notLogged.getMessage());
    }
    return error(out, 503, "NOT_WRITTEN", "request " + requestId
        + " could not be written to Kafka; retry with the same requestId (same decision)");
  }

  /** The bandit's dimension (the context list's size), 0 if it is unknown (refused later, with its reason). */
  private int dimension(String banditId) {
    return decisions.decider().bandit(banditId).map(entry -> entry.spec().dimension()).orElse(0);
  }

  private static int status(Decider.Refused refused) {
    if (refused.code().equals(BanditRejection.UNKNOWN_BANDIT.name())) {
      return 404;
    }
    return refused.code().equals(BanditRejection.DUPLICATE_REQUEST.name()) ? 409 : 400;
  }

  private static int error(ByteBuf out, int status, String code, String message) {
    JsonAnswers.error(out, code, message);
    return status;
  }

  /**
   * The decoded path of a request target (origin form, or absolute form as a proxy sends it), or null if it
   * cannot be decoded. The usual target, a plain path, is taken as it is.
   */
  static String path(String uri) {
    if (uri.startsWith("/") && uri.indexOf('%') < 0 && uri.indexOf('?') < 0 && uri.indexOf('#') < 0) {
      return uri;
    }
    try {
      String target = uri;
      if (!uri.startsWith("/")) {
        String raw = java.net.URI.create(uri).getRawPath();
        if (raw == null || raw.isEmpty()) {
          return null;
        }
        target = raw;
      }
      int fragment = target.indexOf('#');
      return new QueryStringDecoder(fragment < 0 ? target : target.substring(0, fragment)).path();
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
