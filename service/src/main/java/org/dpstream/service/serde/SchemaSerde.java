package org.dpstream.service.serde;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.message.BadHeaderException;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.message.MissingSchemaException;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The Kafka serde of one generated Avro record type.
 *
 * <p>Writes Avro single-object encoding: the marker {@code C3 01}, the 8-byte CRC-64-AVRO
 * fingerprint of the schema, then the binary record; or, for a serde made with
 * {@link #writing(OutputFormat) writing(JSON)}, the natural JSON of the same schema (see
 * {@link NaturalJson}). Reads either, whatever it writes; the marker tells them apart, since no JSON
 * text starts with byte {@code C3}.
 *
 * <p>Two ways to decode, one behaviour:
 *
 * <ul>
 *   <li>{@link #decode(byte[])} returns a {@link DecodeResult}: for the topology's decode step,
 *       which reads raw bytes so that a rejected record can be forwarded to {@code dp.rejected}
 *       with its original bytes, and which should treat bad input as data, not as an error;
 *   <li>{@link #deserialize(String, byte[])} throws {@link DecodeException}: for plain consumers
 *       and Kafka's deserialization exception handlers. It never returns null for bad input; null
 *       comes back only for null bytes (a tombstone).
 * </ul>
 *
 * <p>Thread-safe: Avro's message encoder and decoder keep per-thread buffers, the JSON reader and
 * writer share immutable state, so one instance serves every stream thread.
 *
 * @param <T> the generated record class
 */
public final class SchemaSerde<T extends SpecificRecord> implements Serde<T>, Serializer<T>, Deserializer<T> {

  private static final byte[] SINGLE_OBJECT_MARKER = {(byte) 0xC3, (byte) 0x01};
  private static final int SINGLE_OBJECT_HEADER_LENGTH = SINGLE_OBJECT_MARKER.length + Long.BYTES;

  private final Class<T> type;
  private final OutputFormat written;
  private final Schema schema;
  private final SchemaVersions versions;
  /** The encoder of each version of the schema, oldest first (see {@link SchemaVersions}). */
  private final List<BinaryMessageEncoder<T>> encoders;
  private final BinaryMessageDecoder<T> decoder;
  private final JsonRecordReader jsonReader;
  private final JsonRecordWriter jsonWriter;
  private final FiniteNumbers finiteNumbers;
  private final NonFiniteNumbers nonFinite;

  private SchemaSerde(Class<T> type, NonFiniteNumbers nonFinite, OutputFormat written) {
    this.type = type;
    this.nonFinite = nonFinite;
    this.written = written;
    SpecificData model = GeneratedClassModel.of(type);
    this.schema = model.getSchema(type);
    // For the current version, the same encoder and decoder as the generated getEncoder() and getDecoder(); the
    // decoder also reads every older version of the schema, and a record is written in the oldest that holds it.
    this.versions = new SchemaVersions(schema);
    this.encoders = versions.all().stream().map(version -> new BinaryMessageEncoder<T>(model, version)).toList();
    this.decoder = new BinaryMessageDecoder<>(model, schema);
    versions.all().forEach(decoder::addSchema);
    this.jsonReader = new JsonRecordReader(model, nonFinite);
    this.jsonWriter = new JsonRecordWriter(model);
    this.finiteNumbers = new FiniteNumbers(model);
  }

  /**
   * @param type a class generated from one of the .avsc files
   * @param nonFinite whether decoded records may hold NaN and infinities
   */
  public static <T extends SpecificRecord> SchemaSerde<T> of(Class<T> type, NonFiniteNumbers nonFinite) {
    return new SchemaSerde<>(Objects.requireNonNull(type, "type"), Objects.requireNonNull(nonFinite, "nonFinite"),
        OutputFormat.AVRO);
  }

  /** The same serde, serializing in {@code format}; it still reads both formats. */
  public SchemaSerde<T> writing(OutputFormat format) {
    Objects.requireNonNull(format, "format");
    return format == written ? this : new SchemaSerde<>(type, nonFinite, format);
  }

  /** What {@link #serialize} writes. */
  public OutputFormat written() {
    return written;
  }

  /** The CRC-64-AVRO fingerprint of the schema, as Avro single-object encoding carries it. */
  public long fingerprint() {
    return SchemaNormalization.parsingFingerprint64(schema);
  }

  /** The fingerprints of every version of the schema this serde reads, oldest first (the last is {@link #fingerprint}). */
  public List<Long> fingerprints() {
    return versions.all().stream().map(SchemaNormalization::parsingFingerprint64).toList();
  }

  /**
   * The schema fingerprint of Avro single-object encoded bytes; empty if the bytes do not start
   * with the marker or are too short to hold a fingerprint.
   */
  public static OptionalLong singleObjectFingerprint(byte[] bytes) {
    if (bytes == null || bytes.length < SINGLE_OBJECT_HEADER_LENGTH || !isSingleObjectEncoded(bytes)) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(ByteBuffer.wrap(bytes, SINGLE_OBJECT_MARKER.length, Long.BYTES)
        .order(ByteOrder.LITTLE_ENDIAN).getLong());
  }

  public Class<T> type() {
    return type;
  }

  public Schema schema() {
    return schema;
  }

  /**
   * The record in Avro single-object encoding, in the oldest version of the schema that holds it (a record whose
   * fields added later are all null is written as an older build wrote it, and an older reader reads it).
   */
  public byte[] encode(T value) {
    Objects.requireNonNull(value, "value");
    try {
      ByteBuffer buffer = encoders.get(versions.oldestHolding(value) - 1).encode(value);
      byte[] bytes = new byte[buffer.remaining()];
      buffer.get(bytes);
      return bytes;
    } catch (IOException e) {
      throw new IllegalStateException("encoding an in-memory " + type.getSimpleName() + " failed", e);
    }
  }

  /** The record as natural JSON, which {@link #decode(byte[])} accepts back. */
  public String toJson(T value) {
    return jsonWriter.write(Objects.requireNonNull(value, "value"));
  }

  /** Decodes Avro single-object encoding or natural JSON; a failure is a {@link DecodeResult.Rejected}. */
  public DecodeResult<T> decode(byte[] bytes) {
    try {
      return new DecodeResult.Decoded<>(decodeOrThrow(bytes));
    } catch (DecodeException e) {
      return DecodeResult.Rejected.of(e);
    }
  }

  /**
   * Decodes Avro single-object encoding or natural JSON.
   *
   * @throws DecodeException if the bytes are neither, or hold a value this type does not accept
   */
  public T decodeOrThrow(byte[] bytes) {
    if (bytes == null || bytes.length == 0) {
      throw new DecodeException(RejectReason.UNDECODABLE, "empty input");
    }
    if (!isSingleObjectEncoded(bytes)) {
      return type.cast(jsonReader.read(bytes, schema)); // checks finiteness as it reads
    }
    T value = decodeAvro(bytes);
    if (nonFinite == NonFiniteNumbers.REJECT) {
      finiteNumbers.require(value);
    }
    return value;
  }

  /** Whether the bytes start with the Avro single-object marker (JSON never does). */
  public static boolean isSingleObjectEncoded(byte[] bytes) {
    return bytes.length >= 2 && bytes[0] == SINGLE_OBJECT_MARKER[0] && bytes[1] == SINGLE_OBJECT_MARKER[1];
  }

  private T decodeAvro(byte[] bytes) {
    // Avro's message decoder reads its stream unbuffered, so what is left after the record is exact.
    ByteArrayInputStream in = new ByteArrayInputStream(bytes);
    T value;
    try {
      value = decoder.decode(in, null);
    } catch (MissingSchemaException e) {
      throw new DecodeException(RejectReason.UNKNOWN_SCHEMA_FINGERPRINT,
          "Avro single-object encoding with a schema fingerprint that is not " + schema.getFullName());
    } catch (BadHeaderException e) {
      throw new DecodeException(RejectReason.UNDECODABLE, "truncated Avro single-object header");
    } catch (IOException | AvroRuntimeException | IndexOutOfBoundsException | NegativeArraySizeException e) {
      // Truncated or corrupt binary data: Avro reports it through several exception types.
      throw new DecodeException(RejectReason.UNDECODABLE,
          "corrupt or truncated Avro " + schema.getName() + " (" + e.getClass().getSimpleName() + ")");
    }
    if (in.available() > 0) {
      throw new DecodeException(RejectReason.UNDECODABLE,
          "corrupt Avro " + schema.getName() + ": " + in.available() + " bytes after the record");
    }
    return value;
  }

  /** Avro single-object encoding or natural JSON in UTF-8, as {@link #written()} says; null for null (a tombstone). */
  @Override
  public byte[] serialize(String topic, T value) {
    if (value == null) {
      return null;
    }
    return written == OutputFormat.JSON ? toJson(value).getBytes(StandardCharsets.UTF_8) : encode(value);
  }

  /**
   * Avro single-object encoding or natural JSON; null only for null bytes (a tombstone).
   *
   * @throws DecodeException for anything else that cannot be decoded
   */
  @Override
  public T deserialize(String topic, byte[] bytes) {
    return bytes == null ? null : decodeOrThrow(bytes);
  }

  @Override
  public Serializer<T> serializer() {
    return this;
  }

  @Override
  public Deserializer<T> deserializer() {
    return this;
  }

  @Override
  public void configure(Map<String, ?> configs, boolean isKey) {
    // Nothing to configure; overridden because Serde, Serializer and Deserializer all declare it.
  }

  @Override
  public void close() {
    // Nothing to release; overridden because Serde, Serializer and Deserializer all declare close().
  }

  @Override
  public String toString() {
    return "SchemaSerde[" + schema.getFullName() + ", non-finite numbers: " + nonFinite + ", writes " + written + "]";
  }
}
