/**
 * Serdes of the Avro records in schemas/src/main/avro ({@link org.dpstream.service.serde.DpSerdes}).
 *
 * <p>Every serde writes Avro single-object encoding and reads it or the natural JSON of the same
 * schema ({@link org.dpstream.service.serde.NaturalJson}), told apart by the {@code C3 01} marker, so
 * that simple clients can produce JSON. One schema-driven reader and writer serve every record
 * type. Bad input is never turned into null: {@code deserialize} throws
 * {@link org.dpstream.service.serde.DecodeException} and {@code decode} returns a
 * {@link org.dpstream.service.serde.DecodeResult}, both with a
 * {@link org.dpstream.service.serde.RejectReason} for {@code dp.rejected}.
 *
 * <p>The topology's decode step should consume raw bytes and call {@code decode}: the original
 * bytes are then at hand for the rejected record, a malformed record is a value rather than a
 * control-flow escape, and Kafka Streams' deserialization-exception handlers (which can only log,
 * continue or fail) are not needed for the input topics.
 */
package org.dpstream.service.serde;
