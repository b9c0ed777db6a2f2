package org.dpstream.service.decide.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonParseException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The streaming read of a request body keeps the outcomes of the tree parser it replaced: the whole root value is
 * read first, a repeated field keeps its last value, what follows the root value is not read. From a direct
 * buffer (what the server reads into) and a heap one.
 */
class ApiRequestBodyTest {

  private static ApiRequestBody parse(String json, boolean direct) throws Exception {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    ByteBuf buffer = direct ? Unpooled.directBuffer(bytes.length).writeBytes(bytes) : Unpooled.wrappedBuffer(bytes);
    try {
      return ApiRequestBody.parse(buffer, 3);
    } finally {
      buffer.release();
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aDecisionsFieldsAreReadAsTheTreeReadThem(boolean direct) throws Exception {
    ApiRequestBody body = parse("{\"x\":{\"context\":[9]},\"requestId\":\"a\",\"context\":[1,2.5,-3e2,12345678901234567890]}",
        direct);
    assertTrue(body.object);
    assertEquals("a", body.requestId);
    assertTrue(body.hasContext && body.contextIsArray);
    assertEquals(List.of(1.0, 2.5, -300.0, 12345678901234567890.0), body.context, "a nested context is not the context");
    assertEquals(-1, body.firstNonNumber);
    assertFalse(body.hasReward);

    ApiRequestBody mistyped = parse("{\"requestId\":5,\"context\":[0,{\"x\":[1]},\"y\",null]}", direct);
    assertNull(mistyped.requestId);
    assertEquals(1, mistyped.firstNonNumber, "the first element that is not a number");
    ApiRequestBody notAnArray = parse("{\"requestId\":\"a\",\"context\":{\"0\":1}}", direct);
    assertTrue(notAnArray.hasContext);
    assertFalse(notAnArray.contextIsArray);
    assertNull(body.userId, "no person named");
    assertEquals("p-7", parse("{\"requestId\":\"a\",\"userId\":\"p-7\",\"context\":[1]}", direct).userId);
    assertNull(parse("{\"requestId\":\"a\",\"userId\":7,\"context\":[1]}", direct).userId, "a person is a string");
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aRepeatedFieldKeepsItsLastValueAndWhatFollowsTheRootValueIsNotRead(boolean direct) throws Exception {
    ApiRequestBody body = parse("{\"requestId\":\"a\",\"requestId\":\"b\",\"context\":[1,\"x\"],\"context\":[2]} tail",
        direct);
    assertEquals("b", body.requestId);
    assertEquals(List.of(2.0), body.context);
    assertEquals(-1, body.firstNonNumber, "the first context's wrong element is forgotten with it");
    ApiRequestBody lastIsWrong = parse("{\"context\":[2],\"context\":[1,\"x\"]}", direct);
    assertEquals(1, lastIsWrong.firstNonNumber);
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aRewardIsANumberOrNot(boolean direct) throws Exception {
    ApiRequestBody number = parse("{\"requestId\":\"r\",\"reward\":0.25}", direct);
    assertTrue(number.hasReward && number.rewardIsNumber);
    assertEquals(0.25, number.reward);
    ApiRequestBody text = parse("{\"requestId\":\"r\",\"reward\":\"1\"}", direct);
    assertTrue(text.hasReward);
    assertFalse(text.rewardIsNumber);
    assertEquals(Double.POSITIVE_INFINITY, parse("{\"reward\":1e999}", direct).reward, "refused later, as before");
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void notAnObjectAndNotJsonAreToldApart(boolean direct) throws Exception {
    assertFalse(parse("[1, 2]", direct).object);
    assertFalse(parse("", direct).object);
    assertFalse(parse("  5 ", direct).object);
    // Broken JSON is not JSON, whatever was wrong before the break.
    for (String broken : List.of("[1, 2", "not json", "{\"requestId\": 5, \"context\": [0, \"x\"", "{\"context\":[0,NaN]}")) {
      assertThrows(JsonParseException.class, () -> parse(broken, direct), broken);
    }
  }
}
