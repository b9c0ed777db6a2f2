package org.dpstream.service.consume;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.dpstream.schemas.DecisionPhase;
import org.dpstream.schemas.DecisionResponse;
import org.dpstream.schemas.DenseFeatures;
import org.dpstream.schemas.BanditStepRelease;
import org.dpstream.schemas.ModelRelease;
import org.dpstream.schemas.PrivacyLedger;
import org.dpstream.schemas.Sample;
import org.dpstream.service.serde.DpSerdes;
import org.dpstream.service.serde.OutputFormat;
import org.dpstream.service.serde.SchemaCatalog;
import org.dpstream.service.serde.SchemaSerde;
import org.junit.jupiter.api.Test;

class RecordLineTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private final RecordLine lines = new RecordLine(new ValueReader(SchemaCatalog.dpstream()));

  private static final ModelRelease RELEASE = new ModelRelease("lr-p1.5", 12L, 0L, List.of(0.25, -0.5, 1e-300),
      "dp-tofw", Double.POSITIVE_INFINITY, new PrivacyLedger(1.0, 1e-5, "zcdp", 100L, 0L, 0.5, 1e-5, null, null, null, null, null));
  private static final DecisionResponse DECISION = new DecisionResponse("req-1", 2, DecisionPhase.GREEDY, 310L, null);

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private String line(byte[] value) {
    return lines.format(utf8("k"), 0, 0, value);
  }

  @Test
  void anAvroRecordIsItsNaturalJsonInTheEnvelope() {
    byte[] avro = DpSerdes.decisionResponse().encode(DECISION);
    assertEquals("{\"key\":\"offers\",\"partition\":2,\"offset\":7,"
            + "\"value\":{\"requestId\":\"req-1\",\"arm\":2,\"phase\":\"GREEDY\",\"modelStep\":310}}",
        lines.format(utf8("offers"), 2, 7, avro));
  }

  @Test
  void aRecordPrintsTheSameWhicheverFormatTheServiceWroteItIn() throws Exception {
    SchemaSerde<ModelRelease> serde = DpSerdes.modelRelease();
    String fromAvro = line(serde.serialize("t", RELEASE));
    String fromJson = line(serde.writing(OutputFormat.JSON).serialize("t", RELEASE));
    assertEquals(fromAvro, fromJson);
    JsonNode value = JSON.readTree(fromAvro).get("value");
    assertEquals(JSON.readTree(serde.toJson(RELEASE)), value);
    assertEquals("Infinity", value.get("p").asText(), "non-finite numbers as the natural JSON's strings");
  }

  /** consume prints a bandit's step record (every arm, the extras, the joint ledger) as its natural JSON. */
  @Test
  void aBanditStepRecordPrintsAsItsNaturalJson() throws Exception {
    BanditStepRelease step = BanditStepRelease.newBuilder()
        .setBanditId("offers").setStep(40L).setEpoch(0L).setAlgorithm("dp-hdb/dp-pofw").setP(1.0)
        .setArms(List.of(List.of(0.25, -0.5), List.of(0.0, 1.0)))
        .setExtras(Map.of("forced-sampling", List.of(0.1, 0.2, 0.3, 0.4)))
        .setLedger(RELEASE.getLedger())
        .build();
    JsonNode printed = JSON.readTree(lines.format(utf8("offers"), 0, 3,
        DpSerdes.banditStepRelease().encode(step)));
    assertEquals("offers", printed.get("key").asText());
    assertEquals(JSON.readTree(DpSerdes.banditStepRelease().toJson(step)), printed.get("value"));
    assertEquals(-0.5, printed.get("value").get("arms").get(0).get(1).asDouble());
    assertEquals(4, printed.get("value").get("extras").get("forced-sampling").size());
  }

  @Test
  void anyJsonIsReEmittedCompactly() {
    assertEquals("{\"key\":\"k\",\"partition\":0,\"offset\":0,\"value\":{\"features\":[0.1,0.2],\"label\":1}}",
        line(utf8(" {\n  \"features\": [0.1, 0.2],\n  \"label\": 1\n}\n")));
    assertEquals("{\"key\":\"k\",\"partition\":0,\"offset\":0,\"value\":[1,\"two\",null]}",
        line(utf8("[1, \"two\", null]")));
    assertTrue(line(utf8("{\"x\":NaN}")).endsWith("\"value\":{\"x\":\"NaN\"}}"), line(utf8("{\"x\":NaN}")));
  }

  @Test
  void avroWithNonFiniteNumbersThatTheServiceWouldRejectStillPrints() {
    Sample sample = new Sample(new DenseFeatures(List.of(Double.NaN, 1e200)), Double.NEGATIVE_INFINITY, null, null);
    byte[] avro = DpSerdes.sample().encode(sample);
    assertTrue(line(avro).endsWith("\"value\":{\"features\":[\"NaN\",1.0E200],\"label\":\"-Infinity\"}}"), line(avro));
  }

  @Test
  void tombstonesAndNullKeysAreJsonNull() {
    assertEquals("{\"key\":null,\"partition\":1,\"offset\":5,\"value\":null}", lines.format(null, 1, 5, null));
  }

  @Test
  void nonAsciiIsEscapedSoTheLineIsTheSameOnAnyTerminal() {
    String line = lines.format(utf8("modèle"), 0, 0, utf8("{\"m\":\"é\"}"));
    assertEquals("{\"key\":\"mod\\u00E8le\",\"partition\":0,\"offset\":0,\"value\":{\"m\":\"\\u00E9\"}}", line);
  }

  @Test
  void textThatIsNotJsonIsShownAsTextWithTheReason() throws Exception {
    JsonNode plain = JSON.readTree(line(utf8("hello world")));
    assertTrue(plain.get("value").isNull());
    assertEquals("hello world", plain.get("valueText").asText());
    assertTrue(plain.get("valueError").asText().startsWith("neither Avro nor JSON"), plain.toString());

    JsonNode trailing = JSON.readTree(line(utf8("{\"a\":1} {\"b\":2}")));
    assertEquals("neither Avro nor JSON: content after the JSON value", trailing.get("valueError").asText());
    assertEquals("{\"a\":1} {\"b\":2}", trailing.get("valueText").asText());

    JsonNode empty = JSON.readTree(line(new byte[0]));
    assertEquals("empty value", empty.get("valueError").asText());
  }

  @Test
  void avroOfAnUnknownSchemaIsShownInBase64WithItsFingerprint() throws Exception {
    byte[] foreign = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN)
        .put((byte) 0xC3).put((byte) 0x01).putLong(0x0123456789abcdefL).put((byte) 2).put((byte) 4).array();
    JsonNode node = JSON.readTree(line(foreign));
    assertTrue(node.get("value").isNull());
    assertEquals("Avro single-object encoding of a schema that is not dpstream's (fingerprint 0123456789abcdef)",
        node.get("valueError").asText());
    assertEquals(Base64.getEncoder().encodeToString(foreign), node.get("valueBase64").asText());
    assertFalse(node.has("valueText"));
  }

  @Test
  void truncatedOrCorruptAvroIsShownWithTheReason() throws Exception {
    byte[] avro = DpSerdes.modelRelease().encode(RELEASE);
    JsonNode header = JSON.readTree(line(Arrays.copyOf(avro, 5)));
    assertEquals("truncated Avro single-object header", header.get("valueError").asText());
    JsonNode body = JSON.readTree(line(Arrays.copyOf(avro, avro.length - 3)));
    assertTrue(body.get("value").isNull());
    assertTrue(body.get("valueError").asText().contains("ModelRelease"), body.toString());
    assertEquals(Base64.getEncoder().encodeToString(Arrays.copyOf(avro, avro.length - 3)),
        body.get("valueBase64").asText());
  }

  @Test
  void everyLineIsOneLineOfValidJson() throws Exception {
    for (byte[] value : List.of(utf8("a\nb"), utf8("{\"a\":\n1}"), new byte[] {(byte) 0xff, 0, 10},
        DpSerdes.modelRelease().encode(RELEASE))) {
      String line = line(value);
      assertFalse(line.contains("\n"), line);
      assertTrue(JSON.readTree(line).isObject(), line);
    }
  }
}
