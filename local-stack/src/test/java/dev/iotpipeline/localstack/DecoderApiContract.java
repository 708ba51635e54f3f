package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.kafka.deadletter.DeadLetterHeaders;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The device-type registry and decoding end to end: JavaScript codecs, mapping, dead letters, redrive. */
abstract class DecoderApiContract {

    private static final Path SCRIPTS = Path.of("../decoder-service/src/test/resources/scripts");
    private static final Path CORPUS = Path.of("../decoder-service/src/test/resources/codecs/corpus");
    private static final String EM300TH_HEX = "01755C03673401046865";

    protected abstract LocalStack stack();

    private PipelineClient client() {
        return new PipelineClient(stack());
    }

    private static String name(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private HttpResponse<String> putType(String type, Map<String, Object> body) {
        return client().put(
                        stack().decoderUrl() + "/device-types/" + type,
                        EventJson.mapper().writeValueAsString(body));
    }

    /** Ingest learns new types from the device-types topic; wait until it accepts this one. */
    private HttpResponse<String> postWhenKnown(String channel, String type, String hex) {
        return postWhenKnown(channel, type, hex, 85);
    }

    private HttpResponse<String> postWhenKnown(String channel, String type, String hex, int fPort) {
        var body = "{\"deviceId\":\"js-1\",\"payloadHex\":\"%s\",\"fPort\":%d}".formatted(hex, fPort);
        HttpResponse<String>[] last = new HttpResponse[1];
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            last[0] = client().postUplink(channel, type, body);
            return last[0].statusCode() != 404;
        });
        return last[0];
    }

    @Test
    void shouldDecodeWithATtnStyleScriptRegisteredOverRestLikeTheBuiltInCodec() throws Exception {
        var type = name("em300th-js");
        var channel = name("js");
        var put = putType(
                type,
                Map.of("codec", "javascript", "script", Files.readString(SCRIPTS.resolve("em300th-ttn-style.js"))));
        assertThat(put.statusCode()).as(put.body()).isEqualTo(201);

        assertThat(postWhenKnown(channel, type, EM300TH_HEX).statusCode()).isEqualTo(202);
        assertThat(client().postUplink(
                                channel,
                                "em300th",
                                "{\"deviceId\":\"builtin-1\",\"payloadHex\":\"%s\"}".formatted(EM300TH_HEX))
                        .statusCode())
                .isEqualTo(202);

        await().atMost(Duration.ofSeconds(30)).until(() -> client().storedCount(channel) == 2);
        var items = PipelineClient.json(
                        client().getHistory("/data-units?channel=" + channel).body())
                .get("items");
        assertThat(items.get(0).get("measurements")).isEqualTo(items.get(1).get("measurements"));
        assertThat(items.get(0).get("measurements").get("temperature").asDouble())
                .isEqualTo(30.8);
    }

    @Test
    void shouldRegisterEveryCorpusCodecWithItsExamplesAndStoreBothOutputsItsFirstExampleExpects() throws Exception {
        var channel = name("corpus");
        var expected = new HashMap<String, Map<String, Double>>();
        List<Path> scripts;
        try (var files = Files.list(CORPUS)) {
            scripts = files.filter(p -> p.toString().endsWith(".js")).sorted().toList();
        }
        for (var script : scripts) {
            var codec = script.getFileName().toString().replace(".js", "");
            var examples = EventJson.mapper().readTree(Files.readString(CORPUS.resolve(codec + ".examples.json")));
            var type = name(codec);
            var put = putType(
                    type, Map.of("codec", "javascript", "script", Files.readString(script), "examples", examples));
            assertThat(put.statusCode()).as(codec + ": " + put.body()).isEqualTo(201);
            assertThat(PipelineClient.json(put.body()).get("form").asString())
                    .isIn("decodeUplink", "decodeUplink+normalizeUplink", "Decode", "Decoder");
            JsonNode found = null;
            for (var example : examples) {
                if (found == null && example.path("output").path("errors").isEmpty()) {
                    found = example;
                }
            }
            var first = found;
            // Both outputs are stored: the decoded one under its own names, the normalized one under "normalized.".
            var numbers = new HashMap<String, Double>();
            numericLeaves("", first.get("output").get("data"), numbers);
            if (first.has("normalizedOutput")) {
                numericLeaves("normalized", first.get("normalizedOutput").get("data"), numbers);
            }
            expected.put(type, numbers);
            var hex = new StringBuilder();
            first.get("input").get("bytes").forEach(b -> hex.append("%02X".formatted(b.asInt())));
            var deviceId = "{\"deviceId\":\"%s\",\"payloadHex\":\"%s\",\"fPort\":%d}";
            HttpResponse<String>[] accepted = new HttpResponse[1];
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                accepted[0] = client().postUplink(
                                channel,
                                type,
                                deviceId.formatted(
                                        codec,
                                        hex,
                                        first.get("input").get("fPort").asInt()));
                return accepted[0].statusCode() != 404;
            });
            assertThat(accepted[0].statusCode()).as(accepted[0].body()).isEqualTo(202);
        }

        await().atMost(Duration.ofSeconds(30)).until(() -> client().storedCount(channel) == scripts.size());
        var items = PipelineClient.json(client().getHistory("/data-units?channel=" + channel + "&limit=100")
                        .body())
                .get("items");
        for (var item : items) {
            var measurements = new HashMap<String, Double>();
            item.get("measurements")
                    .properties()
                    .forEach(e -> measurements.put(e.getKey(), e.getValue().asDouble()));
            assertThat(measurements)
                    .as(item.get("deviceType").asString())
                    .containsAllEntriesOf(expected.get(item.get("deviceType").asString()));
        }
    }

    /** The numeric leaves of a codec's expected data, named as the decoder flattens them. */
    private static void numericLeaves(String prefix, JsonNode node, Map<String, Double> into) {
        if (node.isNumber()) {
            into.put(prefix, node.asDouble());
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                numericLeaves(prefix.isEmpty() ? Integer.toString(i) : prefix + "." + i, node.get(i), into);
            }
        } else if (node.isObject()) {
            node.properties()
                    .forEach(e -> numericLeaves(
                            prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey(), e.getValue(), into));
        }
    }

    @Test
    void shouldRefuseAScriptThatReachesForJavaWithItsPosition() {
        var put = putType(
                name("evil"),
                Map.of(
                        "codec",
                        "javascript",
                        "script",
                        "function decodeUplink(input) {\n  return { data: { t: java.lang.System.nanoTime() } };\n}"));

        IngestApiContract.assertProblem(put, 400, "invalid-script");
        var problem = PipelineClient.json(put.body());
        assertThat(problem.get("line").asInt()).isEqualTo(2);
        assertThat(problem.get("column").asInt()).isEqualTo(23);
    }

    @Test
    void shouldApplyAMappingChangeToTheNextMessageWithoutRestart() {
        var type = name("lht");
        var channel = name("map");
        assertThat(putType(type, Map.of("codec", "lht65")).statusCode()).isEqualTo(201);
        assertThat(postWhenKnown(channel, type, "CBF60B0D0376010ADD7FFF", 2).statusCode())
                .isEqualTo(202);
        await().atMost(Duration.ofSeconds(30)).until(() -> client().storedCount(channel) == 1);

        assertThat(putType(
                                type,
                                Map.of(
                                        "codec",
                                        "lht65",
                                        "mapping",
                                        Map.of(
                                                "TempC_SHT",
                                                Map.of("name", "temperature"),
                                                "BatV",
                                                Map.of("name", "batteryVoltage"),
                                                "Hum_SHT",
                                                Map.of("drop", true))))
                        .statusCode())
                .isEqualTo(200);
        assertThat(client().postUplink(
                                channel,
                                type,
                                "{\"deviceId\":\"js-1\",\"payloadHex\":\"CBF60B0D0376010ADD7FFF\",\"fPort\":2}")
                        .statusCode())
                .isEqualTo(202);

        await().atMost(Duration.ofSeconds(30)).until(() -> client().storedCount(channel) == 2);
        var items = PipelineClient.json(
                        client().getHistory("/data-units?channel=" + channel).body())
                .get("items");
        assertThat(items.get(0).get("measurements").has("TempC_SHT")).isTrue();
        assertThat(items.get(1).get("measurements").get("temperature").asDouble())
                .isEqualTo(28.29);
        assertThat(items.get(1).get("measurements").has("Hum_SHT")).isFalse();
    }

    @Test
    void shouldDeadLetterTimeoutsAndCodecErrorsWithTheirCauseAndKeepDecoding() {
        var spin = name("spin");
        var erring = name("erring");
        var channel = name("dlt");
        assertThat(putType(
                                spin,
                                Map.of(
                                        "codec",
                                        "javascript",
                                        "script",
                                        "function decodeUplink(input) { while (true) {} }"))
                        .statusCode())
                .isEqualTo(201);
        assertThat(putType(
                                erring,
                                Map.of(
                                        "codec",
                                        "javascript",
                                        "script",
                                        "function decodeUplink(input) { return { errors: ['bad battery byte'] }; }"))
                        .statusCode())
                .isEqualTo(201);

        var timedOut = id(postWhenKnown(channel, spin, "01"));
        var errored = id(postWhenKnown(channel, erring, "01"));
        assertThat(client().postUplink(
                                channel,
                                "em300th",
                                "{\"deviceId\":\"after\",\"payloadHex\":\"%s\"}".formatted(EM300TH_HEX))
                        .statusCode())
                .isEqualTo(202);

        var causes = deadLetterCauses(List.of(timedOut, errored));
        assertThat(causes.get(timedOut)).startsWith("codec-timeout|javascript");
        assertThat(causes.get(errored)).startsWith("codec-error|javascript").contains("bad battery byte");
        await().atMost(Duration.ofSeconds(30)).until(() -> client().storedCount(channel) == 1);
    }

    @Test
    void shouldRedriveDeadLettersAfterTheCodecIsFixed() throws Exception {
        var type = name("fixme");
        var channel = name("redrive");
        assertThat(putType(
                                type,
                                Map.of(
                                        "codec",
                                        "javascript",
                                        "script",
                                        "function decodeUplink(input) { return { errors: ['not yet'] }; }"))
                        .statusCode())
                .isEqualTo(201);
        var id = id(postWhenKnown(channel, type, EM300TH_HEX));
        assertThat(deadLetterCauses(List.of(id))).containsKey(id);

        assertThat(putType(
                                type,
                                Map.of(
                                        "codec",
                                        "javascript",
                                        "script",
                                        Files.readString(SCRIPTS.resolve("em300th-ttn-style.js"))))
                        .statusCode())
                .isEqualTo(200);
        var redrive = client().post(
                        stack().decoderUrl() + "/dead-letters/redrive?deviceType=" + type, PipelineClient.ADMIN, "");

        assertThat(redrive.statusCode()).as(redrive.body()).isEqualTo(200);
        assertThat(PipelineClient.json(redrive.body()).get("redriven").asInt()).isEqualTo(1);
        await().atMost(Duration.ofSeconds(30)).until(() -> client().storedCount(channel) == 1);
        // Redriving again resends the same uplink id, which is stored once.
        client().post(stack().decoderUrl() + "/dead-letters/redrive?deviceType=" + type, PipelineClient.ADMIN, "");
        var item = PipelineClient.json(
                        client().getHistory("/data-units?channel=" + channel).body())
                .get("items")
                .get(0);
        assertThat(item.get("uplinkId").asString()).isEqualTo(id);
        assertThat(client().storedCount(channel)).isEqualTo(1);
    }

    @Test
    void shouldRefuseATypeWhoseCodecFailsItsExamplesThenStoreItFixedAndTestAPayloadWithIt() throws Exception {
        var type = name("examples");
        var script = Files.readString(SCRIPTS.resolve("em300th-ttn-style.js"));
        var reading = List.of(0x01, 0x75, 0x5C, 0x03, 0x67, 0x34, 0x01, 0x04, 0x68, 0x65);
        var room = Map.of(
                "description",
                "battery, temperature and humidity",
                "input",
                Map.of("fPort", 85, "bytes", reading),
                "output",
                Map.of("data", Map.of("battery", 92, "temperature", 30.8, "humidity", 50.5), "warnings", List.of()));
        var misread = Map.of(
                "description",
                "a misread temperature",
                "input",
                Map.of("fPort", 85, "bytes", reading),
                "output",
                Map.of("data", Map.of("battery", 92, "temperature", 30.9, "humidity", 50.5)));
        var unknown = Map.of(
                "description",
                "an unknown channel",
                "input",
                Map.of("fPort", 85, "bytes", List.of(0x09, 0x01)),
                "output",
                Map.of("errors", List.of("unknown channel 9 type 1 at byte 0")));

        var refused = putType(
                type, Map.of("codec", "javascript", "script", script, "examples", List.of(room, misread, unknown)));

        IngestApiContract.assertProblem(refused, 422, "codec-examples-failed");
        var problem = PipelineClient.json(refused.body());
        assertThat(problem.get("detail").asString()).startsWith("1 of 3 examples failed");
        var mismatch = problem.get("mismatches").get(0);
        assertThat(mismatch.get("example").asInt()).isEqualTo(1);
        assertThat(mismatch.get("path").asString()).isEqualTo("data.temperature");
        assertThat(mismatch.get("expected").asDouble()).isEqualTo(30.9);
        assertThat(mismatch.get("actual").asDouble()).isEqualTo(30.8);
        assertThat(client().get(stack().decoderUrl() + "/device-types/" + type).statusCode())
                .isEqualTo(404);

        var stored = putType(type, Map.of("codec", "javascript", "script", script, "examples", List.of(room, unknown)));

        assertThat(stored.statusCode()).as(stored.body()).isEqualTo(201);
        assertThat(PipelineClient.json(stored.body()).get("form").asString()).isEqualTo("decodeUplink");
        assertThat(PipelineClient.json(stored.body()).get("examples").size()).isEqualTo(2);

        var tested = client().post(
                        stack().decoderUrl() + "/device-types/" + type + "/test",
                        Map.of(
                                "Authorization",
                                "Bearer " + PipelineClient.ADMIN_TOKEN,
                                "Content-Type",
                                "application/json"),
                        "{\"fPort\": 85, \"payloadHex\": \"%s\"}".formatted(EM300TH_HEX));

        assertThat(tested.statusCode()).as(tested.body()).isEqualTo(200);
        var result = PipelineClient.json(tested.body());
        assertThat(result.get("deviceType").asString()).isEqualTo(type);
        assertThat(result.get("measurements").get("temperature").asDouble()).isEqualTo(30.8);
        assertThat(result.get("output").get("humidity").asDouble()).isEqualTo(50.5);
    }

    private static String id(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        return PipelineClient.json(response.body()).get("id").asString();
    }

    /** Uplink id to "cause|codec|reason" for the given ids, read from the dead-letter topic. */
    private Map<String, String> deadLetterCauses(List<String> ids) {
        Map<String, String> found = new HashMap<>();
        try (var consumer = new KafkaConsumer<>(
                Map.<String, Object>of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        stack().bootstrapServers(),
                        ConsumerConfig.GROUP_ID_CONFIG,
                        "it-dlt-" + UUID.randomUUID(),
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest"),
                new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(PipelineTopic.DEAD_LETTER.topicName()));
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                for (var record : consumer.poll(Duration.ofMillis(500))) {
                    JsonNode uplink = PipelineClient.json(record.value());
                    found.put(
                            uplink.get("id").asString(),
                            header(record, DeadLetterHeaders.CAUSE) + "|" + header(record, DeadLetterHeaders.CODEC)
                                    + "|" + header(record, DeadLetterHeaders.REASON));
                }
                return found.keySet().containsAll(ids);
            });
        }
        return found;
    }

    private static String header(org.apache.kafka.clients.consumer.ConsumerRecord<String, String> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
