package org.dpstream.service.decide.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The fields of a decide or reward body, read with Jackson's streaming parser straight from the request's
 * (pooled) buffer: no tree and no copy of the bytes. It accepts what the tree parser it replaces accepted,
 * with the same outcome: the whole root value is read before any field is judged (so a body that is not JSON
 * is {@code UNDECODABLE} whatever came first), a repeated field keeps its last value, and what follows the
 * root value is not read.
 */
final class ApiRequestBody {

  /**
   * Contexts are arrays of doubles: Jackson's fast double parser (the same value as Double.parseDouble) was
   * measured to matter, the JDK's parser was the largest single cost of a decision (docs/benchmarks.md).
   */
  private static final JsonFactory JSON = JsonFactory.builder().enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
      .build();

  /** The root value was a JSON object. */
  boolean object;
  /** The {@code requestId} field if it is a string, else null. */
  String requestId;
  /** The {@code userId} field (the request's person) if it is a string, else null. */
  String userId;
  /** Whether a {@code context} field is present, and whether it is an array. */
  boolean hasContext;
  boolean contextIsArray;
  /** The numbers of the context, in order, when every element is a number. */
  List<Double> context;
  /** The index of the context's first element that is not a number, or -1. */
  int firstNonNumber = -1;
  boolean hasReward;
  boolean rewardIsNumber;
  double reward;

  /**
   * Reads the readable bytes of {@code content} (a direct buffer's are consumed).
   *
   * @param expectedContext the context's expected length (the bandit's dimension), to size its list once
   *
   * @throws com.fasterxml.jackson.core.JsonParseException when it is not JSON
   * @throws IOException when it cannot be read otherwise (a number or string over Jackson's limits)
   */
  static ApiRequestBody parse(ByteBuf content, int expectedContext) throws IOException {
    ApiRequestBody body = new ApiRequestBody();
    try (JsonParser parser = content.hasArray()
        ? JSON.createParser(content.array(), content.arrayOffset() + content.readerIndex(), content.readableBytes())
        : JSON.createParser((InputStream) new ByteBufInputStream(content))) {
      JsonToken root = parser.nextToken();
      if (root != JsonToken.START_OBJECT) {
        parser.skipChildren(); // an array is still read whole: broken JSON stays UNDECODABLE
        return body;
      }
      body.object = true;
      for (JsonToken token = parser.nextToken(); token == JsonToken.FIELD_NAME;
          token = parser.nextToken()) {
        String field = parser.currentName();
        JsonToken value = parser.nextToken();
        switch (field) {
          case "requestId" -> {
            body.requestId = value == JsonToken.VALUE_STRING ? parser.getText() : null;
            parser.skipChildren();
          }
          case "userId" -> {
            body.userId = value == JsonToken.VALUE_STRING ? parser.getText() : null;
            parser.skipChildren();
          }
          case "context" -> body.readContext(parser, value, expectedContext);
          case "reward" -> {
            body.hasReward = true;
            body.rewardIsNumber = value != null && value.isNumeric();
            body.reward = body.rewardIsNumber ? parser.getDoubleValue() : 0;
            parser.skipChildren();
          }
          default -> parser.skipChildren();
        }
      }
    }
    return body;
  }

  private void readContext(JsonParser parser, JsonToken value, int expected) throws IOException {
    hasContext = true;
    contextIsArray = value == JsonToken.START_ARRAY;
    firstNonNumber = -1;
    if (!contextIsArray) {
      context = null;
      parser.skipChildren();
      return;
    }
    List<Double> values = new ArrayList<>(Math.max(1, expected));
    int index = 0;
    for (JsonToken element = parser.nextToken(); element != JsonToken.END_ARRAY && element != null; element = parser.nextToken()) {
      if (element.isNumeric()) {
        values.add(parser.getDoubleValue());
      } else {
        if (firstNonNumber < 0) {
          firstNonNumber = index;
        }
        parser.skipChildren();
      }
      index++;
    }
    context = values;
  }
}
