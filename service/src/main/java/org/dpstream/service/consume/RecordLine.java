package org.dpstream.service.consume;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/**
 * Formats one consumed record as the line {@code consume} prints:
 * {@code {"key":...,"partition":...,"offset":...,"value":{...}}}. A value that cannot be read is
 * {@code "value":null} followed by {@code "valueError"} (why) and {@code "valueText"} (if it is
 * UTF-8 text) or {@code "valueBase64"}, so one bad record never hides the others.
 *
 * <p>Non-ASCII characters are escaped, so the line is the same whatever the terminal's charset.
 */
final class RecordLine {

  private static final ObjectMapper MAPPER = JsonMapper.builder()
      .enable(JsonWriteFeature.ESCAPE_NON_ASCII)
      .build();
  private static final JsonFactory FACTORY = MAPPER.getFactory();

  private final ValueReader values;

  RecordLine(ValueReader values) {
    this.values = values;
  }

  /** The line of a record; a null key or value is JSON null. */
  String format(byte[] key, int partition, long offset, byte[] value) {
    StringWriter line = new StringWriter();
    try (JsonGenerator out = FACTORY.createGenerator(line)) {
      out.writeStartObject();
      out.writeFieldName("key");
      if (key == null) {
        out.writeNull();
      } else {
        out.writeString(new String(key, StandardCharsets.UTF_8));
      }
      out.writeNumberField("partition", partition);
      out.writeNumberField("offset", offset);
      out.writeFieldName("value");
      ReadValue read = values.read(value);
      if (read instanceof ReadValue.Json json) {
        MAPPER.writeTree(out, json.json());
      } else {
        out.writeNull();
        if (read instanceof ReadValue.Unreadable unreadable) {
          writeUnreadable(unreadable, out);
        }
      }
      out.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("writing JSON to a string failed", e);
    }
    return line.toString();
  }

  private static void writeUnreadable(ReadValue.Unreadable unreadable, JsonGenerator out) throws IOException {
    out.writeStringField("valueError", unreadable.reason());
    Optional<String> text = utf8(unreadable.bytes());
    if (text.isPresent()) {
      out.writeStringField("valueText", text.get());
    } else {
      out.writeStringField("valueBase64", Base64.getEncoder().encodeToString(unreadable.bytes()));
    }
  }

  private static Optional<String> utf8(byte[] bytes) {
    try {
      return Optional.of(StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString());
    } catch (CharacterCodingException e) {
      return Optional.empty();
    }
  }
}
