package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.iotpipeline.events.Ids;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.kafka.tracing.RecordTracing;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * One uplink is one trace: a caller's W3C trace id travels in the {@code traceparent} header from the ingest request
 * through uplinks.encoded, data-units and alarms, and out on the dashboard's WebSocket messages; an uplink whose
 * caller sends none is in its own trace, whose id is the uplink id's, and named on alarms and WebSocket messages.
 */
class TracePropagationIT {

    private static final String HOT = "{\"deviceId\":\"%s\",\"payloadHex\":\"01755C03673401046865\"}";

    private final LocalStack stack = EmbeddedStack.shared();
    private final PipelineClient client = new PipelineClient(stack);

    @Test
    void shouldContinueTheCallersTraceOnEveryHopOfItsUplink() {
        var traceId = HexFormat.of().formatHex(randomBytes(16));
        var traceparent = "00-" + traceId + "-" + HexFormat.of().formatHex(randomBytes(8)) + "-01";

        var hops = follow(channel(), "traceparent", traceparent);

        assertThat(hops)
                .as("trace id per hop")
                .containsOnlyKeys("uplinks.encoded", "data-units", "alarms", "ws data-unit", "ws alarm")
                .allSatisfy((hop, id) -> assertThat(id).as(hop).isEqualTo(traceId));
    }

    @Test
    void shouldCarryAnUnsampledCallersTraceIdOnEveryHop() {
        var traceId = HexFormat.of().formatHex(randomBytes(16));
        var traceparent = "00-" + traceId + "-" + HexFormat.of().formatHex(randomBytes(8)) + "-00";

        var hops = follow(channel(), "traceparent", traceparent);

        assertThat(hops)
                .as("trace id per hop")
                .containsOnlyKeys("uplinks.encoded", "data-units", "alarms", "ws data-unit", "ws alarm")
                .allSatisfy((hop, id) -> assertThat(id).as(hop).isEqualTo(traceId));
    }

    @Test
    void shouldPutAnUplinkWhoseCallerSendsNoTraceIntoItsOwnTraceNamedByItsId() {
        var hops = follow(channel());

        var traceId = RecordTracing.traceIdOf(followedUplink);
        assertThat(traceId).matches("[0-9a-f]{32}");
        assertThat(hops)
                .as("trace id per hop: records of the data path carry none (it is the uplink id's); the alarm names it")
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "uplinks.encoded", "none",
                        "data-units", "none",
                        "alarms", traceId,
                        "ws data-unit", traceId,
                        "ws alarm", traceId));
    }

    @Test
    void shouldContinueTheTraceOnTheDeadLetterOfAnUplinkThatCannotBeDecoded() {
        var type = "trace-failing-" + UUID.randomUUID().toString().substring(0, 8);
        assertThat(client.put(stack.decoderUrl() + "/device-types/" + type, """
                {"codec":"javascript","script":"function decodeUplink(input) { return { errors: ['never'] }; }"}
                """).statusCode())
                .isEqualTo(201);
        var traceId = HexFormat.of().formatHex(randomBytes(16));
        var traceparent = "00-" + traceId + "-" + HexFormat.of().formatHex(randomBytes(8)) + "-01";
        var channel = channel();

        // ingest learns new types from the device-types topic: posted once it stops answering 404
        var response = new AtomicReference<HttpResponse<String>>();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            response.set(client.postIngest(
                    "/sensor-data/" + channel + "/encoded/" + type,
                    PipelineClient.DEVICE_KEY,
                    "{\"deviceId\":\"d-1\",\"payloadHex\":\"01\",\"fPort\":85}",
                    "traceparent",
                    traceparent));
            return response.get().statusCode() != 404;
        });
        assertThat(response.get().statusCode()).as(response.get().body()).isEqualTo(202);
        var uplinkId = PipelineClient.json(response.get().body()).get("id").asString();

        assertThat(traceIdOf(
                        PipelineTopic.DEAD_LETTER,
                        uplink -> uplink.get("id").asString().equals(uplinkId)))
                .isEqualTo(traceId);
    }

    /** The uplink {@link #follow} posted last. */
    private UUID followedUplink;

    /** Posts one uplink that a rule raises an alarm for, and returns the trace id each hop carried ("none"). */
    private Map<String, String> follow(String channel, String... headers) {
        assertThat(client.createRule("""
                {"name":"hot","filter":{"channel":"%s"},"condition":"temperature > 30","severity":"CRITICAL"}
                """.formatted(channel)).statusCode()).isEqualTo(201);
        try (var dashboard = client.dashboard()) {
            dashboard.send(
                    ("{\"type\":\"subscribe\",\"id\":\"u\",\"stream\":\"data-units\",\"filter\":{\"channel\":\"%s\"}}")
                            .formatted(channel));
            dashboard.send(
                    ("{\"type\":\"subscribe\",\"id\":\"a\",\"stream\":\"alarms\",\"filter\":{\"channel\":\"%s\"}}")
                            .formatted(channel));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> dashboard.ofType("subscribed").size() == 2);

            var response = client.postIngest(
                    "/sensor-data/" + channel + "/encoded/em300th",
                    PipelineClient.DEVICE_KEY,
                    HOT.formatted("d-1"),
                    headers);
            assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
            var uplinkId = UUID.fromString(
                    PipelineClient.json(response.body()).get("id").asString());
            followedUplink = uplinkId;
            var dataUnitId = Ids.derive(uplinkId, "data-unit").toString();

            var hops = new HashMap<String, String>();
            hops.put(
                    "uplinks.encoded",
                    traceIdOf(
                            PipelineTopic.UPLINKS_ENCODED,
                            uplink -> uplink.get("id").asString().equals(uplinkId.toString())));
            hops.put(
                    "data-units",
                    traceIdOf(
                            PipelineTopic.DATA_UNITS,
                            unit -> unit.get("id").asString().equals(dataUnitId)));
            hops.put(
                    "alarms",
                    traceIdOf(
                            PipelineTopic.ALARMS,
                            alarm -> alarm.has("dataUnitId")
                                    && dataUnitId.equals(alarm.get("dataUnitId").asString())));
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> !dashboard.ofType("data-unit").isEmpty()
                            && !dashboard.ofType("alarm").isEmpty());
            hops.put("ws data-unit", wsTraceId(dashboard.ofType("data-unit").getFirst()));
            hops.put("ws alarm", wsTraceId(dashboard.ofType("alarm").getFirst()));
            return hops;
        }
    }

    /** The trace id on the first record of {@code topic} whose event matches, waiting for it to be written. */
    private String traceIdOf(PipelineTopic<?> topic, Predicate<JsonNode> event) {
        try (var consumer = new KafkaConsumer<>(
                Map.<String, Object>of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        stack.bootstrapServers(),
                        ConsumerConfig.GROUP_ID_CONFIG,
                        "it-trace-" + UUID.randomUUID(),
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest"),
                new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(topic.topicName()));
            var found = new String[1];
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                for (var record : consumer.poll(Duration.ofMillis(500))) {
                    if (found[0] == null && matches(record.value(), event)) {
                        var traceId = RecordTracing.traceId(record.headers());
                        found[0] = traceId == null ? "none" : traceId;
                    }
                }
                return found[0] != null;
            });
            return found[0];
        }
    }

    /** Whether a record is the event sought; other tests of the shared stack write poison records (not JSON) too. */
    private static boolean matches(String value, Predicate<JsonNode> event) {
        if (value == null) {
            return false;
        }
        try {
            return event.test(PipelineClient.json(value));
        } catch (tools.jackson.core.JacksonException notAnEvent) {
            return false;
        }
    }

    private static String wsTraceId(JsonNode message) {
        var traceId = message.get("traceId");
        return traceId == null ? "none" : traceId.asString();
    }

    private static String channel() {
        return "trace-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static byte[] randomBytes(int length) {
        var bytes = new byte[length];
        ThreadLocalRandom.current().nextBytes(bytes);
        return bytes;
    }
}
