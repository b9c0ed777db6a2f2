package org.dpstream.service.consume;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.avro.specific.SpecificRecord;
import org.dpstream.service.serde.DecodeException;
import org.dpstream.service.serde.SchemaCatalog;
import org.dpstream.service.serde.SchemaSerde;

/**
 * Reads the value of a record on any dpstream topic, whichever format it was written in: Avro
 * single-object encoding is decoded with the schema its fingerprint names and shown as the natural
 * JSON of that schema; JSON is parsed as it is, whatever its shape. Anything else is
 * {@link ReadValue.Unreadable}, never an exception.
 *
 * <p>Thread-safe: the mapper and the catalogue are immutable.
 */
final class ValueReader {

  /** NaN and Infinity tokens are read (and written back as strings), so such a value still shows. */
  private static final ObjectMapper JSON = JsonMapper.builder()
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .build();

  private final SchemaCatalog catalog;

  ValueReader(SchemaCatalog catalog) {
    this.catalog = catalog;
  }

  ReadValue read(byte[] value) {
    if (value == null) {
      return new ReadValue.Tombstone();
    }
    if (value.length == 0) {
      return new ReadValue.Unreadable("empty value", value);
    }
    return SchemaSerde.isSingleObjectEncoded(value) ? readAvro(value) : readJson(value);
  }

  private ReadValue readAvro(byte[] value) {
    OptionalLong fingerprint = SchemaSerde.singleObjectFingerprint(value);
    if (fingerprint.isEmpty()) {
      return new ReadValue.Unreadable("truncated Avro single-object header", value);
    }
    Optional<SchemaSerde<? extends SpecificRecord>> serde = catalog.forFingerprint(fingerprint.getAsLong());
    if (serde.isEmpty()) {
      return new ReadValue.Unreadable(String.format(
          "Avro single-object encoding of a schema that is not dpstream's (fingerprint %016x)",
          fingerprint.getAsLong()), value);
    }
    try {
      return new ReadValue.Json(JSON.readTree(asJson(serde.get(), value)));
    } catch (DecodeException e) {
      return new ReadValue.Unreadable(e.getMessage(), value);
    } catch (JacksonException e) {
      throw new IllegalStateException("the natural JSON writer produced unparsable JSON", e);
    }
  }

  private static <T extends SpecificRecord> String asJson(SchemaSerde<T> serde, byte[] value) {
    return serde.toJson(serde.decodeOrThrow(value));
  }

  private static ReadValue readJson(byte[] value) {
    try (JsonParser parser = JSON.createParser(value)) {
      JsonNode node = JSON.readTree(parser);
      if (node == null || node.isMissingNode()) {
        return new ReadValue.Unreadable("blank value", value);
      }
      if (parser.nextToken() != null) {
        return new ReadValue.Unreadable("neither Avro nor JSON: content after the JSON value", value);
      }
      return new ReadValue.Json(node);
    } catch (JacksonException e) {
      // The original message has no excerpt of the input.
      return new ReadValue.Unreadable("neither Avro nor JSON: " + e.getOriginalMessage(), value);
    } catch (IOException e) {
      return new ReadValue.Unreadable("neither Avro nor JSON: " + e.getClass().getSimpleName(), value);
    }
  }
}
