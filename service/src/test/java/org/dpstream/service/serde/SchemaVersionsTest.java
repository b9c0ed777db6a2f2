package org.dpstream.service.serde;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.dpstream.schemas.DecidedRequest;
import org.dpstream.schemas.DecisionPhase;
import org.dpstream.schemas.DecisionRequest;
import org.dpstream.schemas.DecisionResponse;
import org.dpstream.schemas.Reward;
import org.junit.jupiter.api.Test;

/**
 * The bandit records gained an optional {@code caller} (version 2): producers and readers of the first version keep
 * working. The first versions below are the schemas as they were shipped (their fields and types, which is what a
 * fingerprint covers).
 */
class SchemaVersionsTest {

  private static final String RESPONSE_V1 = """
      {"type": "record", "name": "DecisionResponse", "namespace": "org.dpstream.schemas", "fields": [
        {"name": "requestId", "type": "string"},
        {"name": "arm", "type": "int"},
        {"name": "phase", "type": {"type": "enum", "name": "DecisionPhase", "symbols": ["WARM_UP", "GREEDY"]}},
        {"name": "modelStep", "type": "long"}]}""";
  private static final String DECIDED_V1 = """
      {"type": "record", "name": "DecidedRequest", "namespace": "org.dpstream.schemas", "fields": [
        {"name": "decision", "type": %s},
        {"name": "context", "type": {"type": "array", "items": "double"}},
        {"name": "eventTime", "type": ["null", "long"], "default": null}]}""".formatted(RESPONSE_V1);
  private static final String REQUEST_V1 = """
      {"type": "record", "name": "DecisionRequest", "namespace": "org.dpstream.schemas", "fields": [
        {"name": "requestId", "type": "string"},
        {"name": "context", "type": {"type": "array", "items": "double"}},
        {"name": "eventTime", "type": ["null", "long"], "default": null}]}""";
  private static final String REWARD_V1 = """
      {"type": "record", "name": "Reward", "namespace": "org.dpstream.schemas", "fields": [
        {"name": "requestId", "type": "string"},
        {"name": "reward", "type": "double"},
        {"name": "eventTime", "type": ["null", "long"], "default": null}]}""";

  private static Schema parse(String json) {
    return new Schema.Parser().parse(json);
  }

  /** A record with a field added in version 2, in an array, in a map and beside an array of plain doubles. */
  private static final String NESTED = """
      {"type": "record", "name": "Outer", "fields": [
        {"name": "values", "type": {"type": "array", "items": "double"}},
        {"name": "list", "type": {"type": "array", "items": {"type": "record", "name": "Inner", "fields": [
          {"name": "a", "type": "int"},
          {"name": "b", "type": ["null", "int"], "default": null, "since": 2}]}}},
        {"name": "map", "type": {"type": "map", "values": "Inner"}}]}""";

  @Test
  void aFieldAddedLaterIsFoundInAnyElementOfAnArrayOrAMap() {
    Schema outer = parse(NESTED);
    Schema inner = outer.getField("list").schema().getElementType();
    SchemaVersions versions = new SchemaVersions(outer);
    GenericRecord old = new GenericData.Record(inner);
    old.put("a", 1);
    GenericRecord later = new GenericData.Record(inner);
    later.put("a", 1);
    later.put("b", 7);
    assertEquals(1, versions.oldestHolding(outerWith(outer, List.of(old, old), java.util.Map.of("k", old))));
    assertEquals(2, versions.oldestHolding(outerWith(outer, List.of(old, later), java.util.Map.of("k", old))));
    assertEquals(2, versions.oldestHolding(outerWith(outer, List.of(old), java.util.Map.of("k", old, "l", later))));
  }

  private static GenericRecord outerWith(Schema outer, List<GenericRecord> list, java.util.Map<String, GenericRecord> map) {
    GenericRecord record = new GenericData.Record(outer);
    record.put("values", List.of(0.5, -1.0, Double.NaN));
    record.put("list", list);
    record.put("map", map);
    return record;
  }

  @Test
  void theFirstVersionOfEachSchemaIsTheOneShippedAndTheLastTheCurrent() {
    assertVersions(DpSerdes.decisionResponse(), RESPONSE_V1);
    assertVersions(DpSerdes.decidedRequest(), DECIDED_V1);
    assertVersions(DpSerdes.decisionRequest(), REQUEST_V1);
    assertVersions(DpSerdes.reward(), REWARD_V1);
  }

  private static void assertVersions(SchemaSerde<?> serde, String first) {
    List<Long> fingerprints = serde.fingerprints();
    assertEquals(SchemaNormalization.parsingFingerprint64(parse(first)), fingerprints.get(0), serde.schema().getName());
    assertEquals(serde.fingerprint(), fingerprints.get(fingerprints.size() - 1), serde.schema().getName());
  }

  @Test
  void anUnscopedRecordIsWrittenByteForByteAsTheFirstVersionWroteIt() throws Exception {
    Schema v1 = parse(DECIDED_V1);
    GenericRecord decision = new GenericData.Record(v1.getField("decision").schema());
    decision.put("requestId", "r1");
    decision.put("arm", 2);
    decision.put("phase", new GenericData.EnumSymbol(v1.getField("decision").schema().getField("phase").schema(),
        "GREEDY"));
    decision.put("modelStep", 41L);
    GenericRecord old = new GenericData.Record(v1);
    old.put("decision", decision);
    old.put("context", List.of(0.5, -1.0));
    byte[] asTheFirstVersion = bytes(new BinaryMessageEncoder<GenericRecord>(GenericData.get(), v1).encode(old));

    DecidedRequest current = DecidedRequest.newBuilder()
        .setDecision(DecisionResponse.newBuilder().setRequestId("r1").setArm(2).setPhase(DecisionPhase.GREEDY)
            .setModelStep(41).build())
        .setContext(List.of(0.5, -1.0)).build();
    byte[] written = DpSerdes.decidedRequest().encode(current);
    assertArrayEquals(asTheFirstVersion, written);
    // And a reader of the first version reads it.
    GenericRecord read = new BinaryMessageDecoder<GenericRecord>(GenericData.get(), v1).decode(written);
    assertEquals("r1", read.get("decision") instanceof GenericRecord r ? r.get("requestId").toString() : null);
  }

  @Test
  void aProducerOfTheFirstVersionIsReadWithNoCaller() throws Exception {
    Schema v1 = parse(REWARD_V1);
    GenericRecord old = new GenericData.Record(v1);
    old.put("requestId", "r7");
    old.put("reward", 0.25);
    byte[] bytes = bytes(new BinaryMessageEncoder<GenericRecord>(GenericData.get(), v1).encode(old));
    Reward read = DpSerdes.reward().decodeOrThrow(bytes);
    assertEquals("r7", read.getRequestId());
    assertEquals(0.25, read.getReward());
    assertNull(read.getCaller());
  }

  @Test
  void aScopedRecordIsWrittenInTheCurrentVersionAndReadBack() {
    DecisionRequest scoped = DecisionRequest.newBuilder().setRequestId("r1").setContext(List.of(1.0))
        .setCaller("alice").setUserId("person-1").build();
    byte[] bytes = DpSerdes.decisionRequest().encode(scoped);
    assertEquals(DpSerdes.decisionRequest().fingerprint(), SchemaSerde.singleObjectFingerprint(bytes).getAsLong());
    assertEquals(scoped, DpSerdes.decisionRequest().decodeOrThrow(bytes));
    DecidedRequest nested = DecidedRequest.newBuilder()
        .setDecision(DecisionResponse.newBuilder().setRequestId("r1").setArm(0).setPhase(DecisionPhase.WARM_UP)
            .setModelStep(0).setCaller("alice").build())
        .setContext(List.of(1.0)).build();
    byte[] nestedBytes = DpSerdes.decidedRequest().encode(nested);
    assertEquals(DpSerdes.decidedRequest().fingerprint(), SchemaSerde.singleObjectFingerprint(nestedBytes).getAsLong(),
        "a caller in a nested record needs the current version too");
    assertEquals(nested, DpSerdes.decidedRequest().decodeOrThrow(nestedBytes));
  }

  @Test
  void aRequestNamingItsCallerOnlyIsWrittenInTheVersionBeforeTheUserId() {
    DecisionRequest scoped = DecisionRequest.newBuilder().setRequestId("r1").setContext(List.of(1.0))
        .setCaller("alice").build();
    byte[] bytes = DpSerdes.decisionRequest().encode(scoped);
    List<Long> versions = DpSerdes.decisionRequest().fingerprints();
    assertEquals(3, versions.size());
    assertEquals(versions.get(1), SchemaSerde.singleObjectFingerprint(bytes).getAsLong(),
        "readers of the build before userId keep reading it");
    assertEquals(scoped, DpSerdes.decisionRequest().decodeOrThrow(bytes));
    assertEquals("person-1", DpSerdes.decisionRequest().decodeOrThrow(
        utf8("{\"requestId\": \"r\", \"context\": [1], \"userId\": \"person-1\"}")).getUserId());
  }

  @Test
  void jsonWithoutACallerIsTheKafkaScopeAndWithOneIsScoped() {
    assertNull(DpSerdes.reward().decodeOrThrow(utf8("{\"requestId\": \"r\", \"reward\": 1}")).getCaller());
    assertEquals("bob", DpSerdes.reward().decodeOrThrow(
        utf8("{\"requestId\": \"r\", \"reward\": 1, \"caller\": \"bob\"}")).getCaller());
    assertEquals("bob", DpSerdes.decisionRequest().decodeOrThrow(
        utf8("{\"requestId\": \"r\", \"context\": [1], \"caller\": \"bob\"}")).getCaller());
    // Written without it when it is null: a JSON reader of the first version, which refuses unknown fields, reads it.
    assertEquals("{\"requestId\":\"r\",\"reward\":1.0}",
        DpSerdes.reward().toJson(Reward.newBuilder().setRequestId("r").setReward(1).build()));
  }

  @Test
  void theCatalogueFindsEveryVersion() {
    SchemaCatalog catalog = SchemaCatalog.dpstream();
    for (long fingerprint : DpSerdes.decidedRequest().fingerprints()) {
      assertEquals(DecidedRequest.class, catalog.forFingerprint(fingerprint).orElseThrow().type());
    }
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] bytes(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.get(bytes);
    return bytes;
  }
}
