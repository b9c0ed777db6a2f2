package org.dpstream.service.decide.http;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.nio.charset.StandardCharsets;
import org.dpstream.schemas.DecisionResponse;

/**
 * The API's JSON answers, written by hand into the answer's (pooled) buffer: no tree, no intermediate
 * string or array for a request id that needs no escaping (the usual case).
 */
final class JsonAnswers {

  private static final byte[] REQUEST_ID = ascii("{\"requestId\":");
  private static final byte[] ARM = ascii(",\"arm\":");
  private static final byte[] MODEL_STEP = ascii(",\"modelStep\":");
  private static final byte[] PHASE = ascii(",\"phase\":\"");
  private static final byte[] ERROR = ascii("{\"error\":");
  private static final byte[] MESSAGE = ascii(",\"message\":");

  private JsonAnswers() {}

  /** {@code {"requestId": ..., "arm": k, "modelStep": n, "phase": "..."}}. */
  static void decision(ByteBuf out, DecisionResponse response) {
    out.writeBytes(REQUEST_ID);
    string(out, response.getRequestId());
    out.writeBytes(ARM);
    decimal(out, response.getArm());
    out.writeBytes(MODEL_STEP);
    decimal(out, response.getModelStep());
    out.writeBytes(PHASE);
    ByteBufUtil.writeAscii(out, response.getPhase().name());
    out.writeByte('"').writeByte('}');
  }

  /** {@code {"requestId": ...}}. */
  static void reward(ByteBuf out, String requestId) {
    out.writeBytes(REQUEST_ID);
    string(out, requestId);
    out.writeByte('}');
  }

  /** {@code {"error": CODE, "message": ...}}. */
  static void error(ByteBuf out, String code, String message) {
    out.writeBytes(ERROR);
    string(out, code);
    out.writeBytes(MESSAGE);
    string(out, message);
    out.writeByte('}');
  }

  /** {@code text} as a JSON string. */
  static void string(ByteBuf out, String text) {
    out.writeByte('"');
    if (plainAscii(text)) {
      ByteBufUtil.writeAscii(out, text);
    } else {
      out.writeBytes(JsonStringEncoder.getInstance().quoteAsUTF8(text));
    }
    out.writeByte('"');
  }

  /** Whether {@code text} is printable ASCII without a quote or backslash: written as it is. */
  private static boolean plainAscii(CharSequence text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
        return false;
      }
    }
    return true;
  }

  /** {@code value} in decimal, without a string. */
  static void decimal(ByteBuf out, long value) {
    if (value < 0) {
      if (value == Long.MIN_VALUE) {
        ByteBufUtil.writeAscii(out, Long.toString(value));
        return;
      }
      out.writeByte('-');
      value = -value;
    }
    long scale = 1;
    while (scale <= value / 10) {
      scale *= 10;
    }
    for (; scale > 0; scale /= 10) {
      out.writeByte((int) ('0' + value / scale % 10));
    }
  }

  static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }
}
