package dev.iotpipeline.decoder.decoding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.iotpipeline.decoder.DecoderApplication;
import dev.iotpipeline.events.EncodedUplink;
import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.events.Ids;
import dev.iotpipeline.kafka.deadletter.DeadLetterHeaders;
import dev.iotpipeline.kafka.topic.MintedId;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.kafka.topic.UplinkDigest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.kafka.test.EmbeddedKafkaBroker;
import org.springframework.kafka.test.context.EmbeddedKafka;
import org.springframework.kafka.test.utils.KafkaTestUtils;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

/**
 * The decoder service alone on a real broker in this JVM: an uplink becomes its data unit, records it can
 * never decode become dead letters with their cause while the records behind them still decode, and a dead
 * letter re-driven once its device type exists becomes a data unit.
 */
@SpringBootTest(
        classes = DecoderApplication.class,
        properties = {
            "spring.config.name=decoder-service",
            "spring.kafka.bootstrap-servers=${spring.embedded.kafka.brokers}",
            "server.port=0",
            "decoder.kafka.partitions=1",
            // Small enough that a data unit of 3,000 measurements can never be written, while every other
            // record here, dead letters included, fits.
            "spring.kafka.producer.properties[max.request.size]=32768",
            "iot.security.admin-tokens[0]=admin-secret"
        })
@EmbeddedKafka(partitions = 1)
@AutoConfigureMockMvc
class UplinkListenerTest {

    @Autowired
    private EmbeddedKafkaBroker broker;

    @Autowired
    private MockMvc mvc;

    private KafkaProducer<String, byte[]> producer;
    private KafkaConsumer<String, byte[]> consumer;

    @BeforeEach
    void clients() {
        producer = new KafkaProducer<>(
                Map.of("bootstrap.servers", broker.getBrokersAsString()),
                new StringSerializer(),
                new ByteArraySerializer());
        var props = KafkaTestUtils.consumerProps(broker, "listener-test-" + Ids.newId(), false);
        props.put("auto.offset.reset", "earliest");
        consumer = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
        consumer.subscribe(List.of(PipelineTopic.DATA_UNITS.topicName(), PipelineTopic.DEAD_LETTER.topicName()));
    }

    @AfterEach
    void close() {
        producer.close();
        consumer.close();
    }

    @Test
    void decodesAnUplinkIntoItsDataUnitKeyedByDevice() throws Exception {
        var uplink = uplink("dev-ok", "01755C0367F600");
        send(uplink.deviceId(), EventJson.write(uplink));

        var record = awaitRecord(PipelineTopic.DATA_UNITS.topicName(), uplink.deviceId());
        var unit = PipelineTopic.DATA_UNITS.read(record.value());
        assertThat(unit.uplinkId()).isEqualTo(uplink.id());
        assertThat(unit.channel()).isEqualTo("irrigation");
        assertThat(unit.measurements()).containsKeys("battery", "temperature");
        assertThat(UplinkDigest.read(record.headers()))
                .as("the uplink's digest travels with its data unit")
                .isEqualTo(UplinkDigest.of(uplink));
    }

    @Test
    void marksTheDataUnitsOfAnUplinkWhoseIdIngestMintedInsteadOfGivingThemItsDigest() throws Exception {
        var minted = uplink("dev-minted", "01755C0367F600");
        var record = new ProducerRecord<String, byte[]>(
                PipelineTopic.UPLINKS_ENCODED.topicName(), minted.deviceId(), EventJson.write(minted));
        MintedId.mark(record.headers());
        producer.send(record).get();
        var named = uplink("dev-named", "01755C0367F600");
        send(named.deviceId(), EventJson.write(named));

        var ofMinted = awaitRecord(PipelineTopic.DATA_UNITS.topicName(), "dev-minted");
        assertThat(MintedId.isMarked(ofMinted.headers())).isTrue();
        assertThat(UplinkDigest.read(ofMinted.headers())).isNull();
        var ofNamed = awaitRecord(PipelineTopic.DATA_UNITS.topicName(), "dev-named");
        assertThat(MintedId.isMarked(ofNamed.headers())).isFalse();
        assertThat(UplinkDigest.read(ofNamed.headers())).isEqualTo(UplinkDigest.of(named));
    }

    @Test
    void deadLettersWhatItCanNeverDecodeAndKeepsDecodingWhatFollows() throws Exception {
        send("dev-poison", "not an uplink".getBytes(StandardCharsets.UTF_8));
        var truncated = uplink("dev-truncated", "0367");
        send(truncated.deviceId(), EventJson.write(truncated));
        var after = uplink("dev-after", "01755C");
        send(after.deviceId(), EventJson.write(after));

        var poison = awaitRecord(PipelineTopic.DEAD_LETTER.topicName(), "dev-poison");
        assertThat(header(poison, DeadLetterHeaders.STAGE)).isEqualTo(DeadLetterHeaders.STAGE_DECODE);
        assertThat(new String(poison.value(), StandardCharsets.UTF_8)).isEqualTo("not an uplink");
        var codecError = awaitRecord(PipelineTopic.DEAD_LETTER.topicName(), truncated.deviceId());
        assertThat(header(codecError, DeadLetterHeaders.CAUSE)).isEqualTo(DeadLetterCause.CODEC_ERROR.tag());
        assertThat(header(poison, DeadLetterHeaders.CAUSE)).isEqualTo(DeadLetterCause.MALFORMED_EVENT.tag());
        assertThat(PipelineTopic.UPLINKS_ENCODED.read(codecError.value()).id()).isEqualTo(truncated.id());
        var unit = PipelineTopic.DATA_UNITS.read(
                awaitRecord(PipelineTopic.DATA_UNITS.topicName(), "dev-after").value());
        assertThat(unit.uplinkId()).isEqualTo(after.id());
    }

    @Test
    void redrivesADeadLetterOnceItsDeviceTypeExists() throws Exception {
        var early = new EncodedUplink(
                Ids.newId(),
                1,
                "irrigation",
                "late-sensor",
                "dev-early",
                1,
                new byte[] {0x2a},
                Instant.now(),
                null,
                Map.of());
        send(early.deviceId(), EventJson.write(early));
        var dead = awaitRecord(PipelineTopic.DEAD_LETTER.topicName(), early.deviceId());
        assertThat(header(dead, DeadLetterHeaders.CAUSE)).isEqualTo(DeadLetterCause.UNKNOWN_DEVICE_TYPE.tag());

        defineDeviceType("late-sensor", "function decodeUplink(input) { return {data: {level: input.bytes[0]}}; }")
                .andExpect(status().isCreated());
        mvc.perform(post("/dead-letters/redrive")
                        .param("deviceType", "late-sensor")
                        .header("Authorization", "Bearer admin-secret"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.redriven").value(1));

        var unit = PipelineTopic.DATA_UNITS.read(
                awaitRecord(PipelineTopic.DATA_UNITS.topicName(), "dev-early").value());
        assertThat(unit.uplinkId()).isEqualTo(early.id());
        assertThat(unit.measurements()).containsEntry("level", 42.0);
    }

    @Test
    void deadLettersAnUplinkWhoseDataUnitCanNeverBeWrittenWhenNothingFollowsIt() throws Exception {
        defineWideSensor();
        var wide = uplink("wide-sensor", "dev-wide-alone", "2a");
        send(wide.deviceId(), EventJson.write(wide));

        var dead = awaitRecord(PipelineTopic.DEAD_LETTER.topicName(), wide.deviceId());
        assertThat(header(dead, DeadLetterHeaders.CAUSE)).isEqualTo(DeadLetterHeaders.CAUSE_UNPUBLISHABLE);
        assertThat(PipelineTopic.UPLINKS_ENCODED.read(dead.value()).id()).isEqualTo(wide.id());
    }

    @Test
    void deadLettersAnUplinkWhoseDataUnitCanNeverBeWrittenAndDecodesTheUplinksPolledAfterIt() throws Exception {
        defineWideSensor();
        var wide = uplink("wide-sensor", "dev-wide", "2a");
        send(wide.deviceId(), EventJson.write(wide));
        var after = new ArrayList<EncodedUplink>();
        for (int i = 0; i < 20; i++) {
            after.add(uplink("em300th", "dev-after-wide-" + i, "01755C"));
            send(after.getLast().deviceId(), EventJson.write(after.getLast()));
        }

        var dead = awaitRecord(PipelineTopic.DEAD_LETTER.topicName(), wide.deviceId());
        assertThat(header(dead, DeadLetterHeaders.CAUSE)).isEqualTo(DeadLetterHeaders.CAUSE_UNPUBLISHABLE);
        for (var uplink : after) {
            var unit =
                    PipelineTopic.DATA_UNITS.read(awaitRecord(PipelineTopic.DATA_UNITS.topicName(), uplink.deviceId())
                            .value());
            assertThat(unit.uplinkId()).isEqualTo(uplink.id());
        }
    }

    /** A device type whose every data unit is larger than this context's producer may send. */
    private void defineWideSensor() throws Exception {
        defineDeviceType(
                        "wide-sensor",
                        "function decodeUplink(input) { var d = {}; for (var i = 0; i < 3000; i++) {"
                                + " d['reading_' + i] = input.bytes[0] + i; } return {data: d}; }")
                .andExpect(status().is2xxSuccessful());
    }

    /** Creates or replaces a device type with a JavaScript codec (the script holds no double quotes). */
    private ResultActions defineDeviceType(String name, String script) throws Exception {
        return mvc.perform(put("/device-types/" + name)
                .header("Authorization", "Bearer admin-secret")
                .contentType(MediaType.APPLICATION_JSON)
                .content("""
                        {"codec":"javascript","script":"%s"}
                        """.formatted(script)));
    }

    private final List<ConsumerRecord<String, byte[]>> seen = new ArrayList<>();

    private ConsumerRecord<String, byte[]> awaitRecord(String topic, String key) {
        return Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(
                        () -> {
                            consumer.poll(Duration.ofMillis(200)).forEach(seen::add);
                            return seen.stream()
                                    .filter(r -> r.topic().equals(topic) && key.equals(r.key()))
                                    .findFirst()
                                    .orElse(null);
                        },
                        r -> r != null);
    }

    private void send(String key, byte[] value) throws Exception {
        producer.send(new ProducerRecord<>(PipelineTopic.UPLINKS_ENCODED.topicName(), key, value))
                .get();
    }

    private static String header(ConsumerRecord<String, byte[]> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static EncodedUplink uplink(String deviceId, String hex) {
        return uplink("em300th", deviceId, hex);
    }

    private static EncodedUplink uplink(String deviceType, String deviceId, String hex) {
        return new EncodedUplink(
                Ids.newId(),
                1,
                "irrigation",
                deviceType,
                deviceId,
                85,
                HexFormat.of().parseHex(hex),
                Instant.now(),
                null,
                Map.of());
    }
}
