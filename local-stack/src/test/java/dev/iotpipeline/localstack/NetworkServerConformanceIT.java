package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Every message a network server sends, from our own corpus in the shapes The Things Stack and ChirpStack
 * document (src/test/resources/network-servers), against the real stack: uplinks are stored once each, every
 * other well-formed message is answered 204 with nothing stored and counted by type, malformed bodies get their
 * problem. And the cases that lost data after a 202: ids reused across channels and devices, and a conflicting
 * retry, which ends as a dead letter the invariant checker counts.
 */
class NetworkServerConformanceIT {

    private static final String EM300TH_HEX = "01755C03673401046865";
    private static final String EM300TH_BASE64 = "AXVcA2c0AQRoZQ==";

    private final LocalStack stack = EmbeddedStack.shared();
    private final PipelineClient client = new PipelineClient(stack);

    /** One case of the corpus, as its envelope describes it. */
    private record Case(
            String file,
            String server,
            String event,
            String messageType,
            String expect,
            int status,
            String problemType,
            JsonNode body) {

        String deviceId() {
            return server.equals("tts")
                    ? body.path("end_device_ids").path("device_id").asString("")
                    : body.path("deviceInfo").path("devEui").asString("");
        }

        String path(String channel) {
            return "/sensor-data/" + channel + "/webhooks/" + server + "/em300th"
                    + (event == null ? "" : "?event=" + event);
        }
    }

    @Test
    void shouldAnswerEveryWellFormedMessageTypeWith2xxStoreOnlyUplinksAndRefuseMalformedBodies() throws Exception {
        var channel = channel("conf");
        var cases = corpus();
        assertThat(cases)
                .extracting(Case::messageType)
                .contains(
                        "uplink_message",
                        "join_accept",
                        "downlink_ack",
                        "downlink_nack",
                        "downlink_sent",
                        "downlink_failed",
                        "downlink_queued",
                        "downlink_queue_invalidated",
                        "location_solved",
                        "service_data",
                        "uplink_normalized",
                        "up",
                        "join",
                        "ack",
                        "txack",
                        "log",
                        "status",
                        "location",
                        "integration");
        var ignoredBefore =
                client.ingestMetric(Pattern.compile("ingest_webhook_messages_total\\{.*outcome=\"ignored\".*"));

        var stored = new ArrayList<Case>();
        var ignored = new ArrayList<Case>();
        for (var c : cases) {
            var response = client.postIngest(
                    c.path(channel), PipelineClient.DEVICE_KEY, c.body().toString());

            assertThat(response.statusCode())
                    .as(c.file() + ": " + response.body())
                    .isEqualTo(c.status());
            switch (c.expect()) {
                case "stored" -> stored.add(c);
                case "ignored" -> {
                    assertThat(response.body()).as(c.file()).isEmpty();
                    ignored.add(c);
                }
                case "rejected" -> {
                    assertThat(response.headers().firstValue("Content-Type"))
                            .as(c.file())
                            .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
                    assertThat(PipelineClient.json(response.body()).get("type").asString())
                            .as(c.file())
                            .endsWith("/" + c.problemType());
                }
                default -> throw new AssertionError(c.file() + ": unknown expectation " + c.expect());
            }
        }

        await().atMost(Duration.ofSeconds(30)).until(() -> client.storedCount(channel) >= stored.size());
        for (var c : stored) {
            assertThat(count(channel, c.deviceId()))
                    .as(c.file() + " stored once")
                    .isEqualTo(1);
        }
        assertThat(client.storedCount(channel)).as("nothing but the uplinks").isEqualTo(stored.size());
        var silent = new HashSet<String>();
        ignored.forEach(c -> silent.add(c.deviceId()));
        stored.forEach(c -> silent.remove(c.deviceId()));
        for (var deviceId : silent) {
            assertThat(count(channel, deviceId)).as(deviceId).isZero();
        }
        assertThat(client.ingestMetric(Pattern.compile("ingest_webhook_messages_total\\{.*outcome=\"ignored\".*")))
                .isEqualTo(ignoredBefore + ignored.size());
        assertThat(client.ingestMetric(
                        Pattern.compile("ingest_webhook_messages_total\\{.*server=\"tts\".*type=\"join_accept\".*")))
                .isPositive();
    }

    @Test
    void shouldStoreOneIdReusedInTwoChannelsAndByTwoDevicesOnceInEach() {
        var north = channel("north");
        var south = channel("south");
        var key = UUID.randomUUID().toString();
        var deduplicationId = UUID.randomUUID().toString();

        var answers = new ArrayList<String>();
        for (var channel : List.of(north, south)) {
            for (var deviceId : List.of("a1b2c3d4e5f60001", "a1b2c3d4e5f60002")) {
                answers.add(accepted(client.postUplink(
                        channel,
                        "em300th",
                        "{\"deviceId\":\"%s\",\"payloadHex\":\"%s\",\"fPort\":85,\"id\":\"%s\"}"
                                .formatted("enc-" + deviceId, EM300TH_HEX, key))));
                answers.add(accepted(client.postIngest(
                        "/sensor-data/" + channel + "/webhooks/chirpstack/em300th?event=up",
                        PipelineClient.DEVICE_KEY,
                        chirpStackUp(deviceId, deduplicationId))));
            }
        }

        assertThat(new HashSet<>(answers)).as("eight uplinks, eight ids").hasSize(8);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> client.storedCount(north) >= 4 && client.storedCount(south) >= 4);
        for (var channel : List.of(north, south)) {
            for (var deviceId : List.of("a1b2c3d4e5f60001", "a1b2c3d4e5f60002")) {
                assertThat(count(channel, deviceId))
                        .as(channel + "/" + deviceId + " via ChirpStack")
                        .isEqualTo(1);
                assertThat(count(channel, "enc-" + deviceId))
                        .as(channel + "/enc-" + deviceId)
                        .isEqualTo(1);
            }
        }
    }

    @Test
    void shouldDeadLetterAConflictingRetryKeepTheFirstAndHaveTheInvariantCheckerCountIt() throws Exception {
        var channel = channel("conflict");
        var key = "reading-" + UUID.randomUUID();
        var first = client.postUplink(
                channel,
                "em300th",
                "{\"deviceId\":\"c-1\",\"payloadHex\":\"01755C03673401046865\",\"id\":\"" + key + "\"}");
        var repeat = client.postUplink(
                channel,
                "em300th",
                "{\"deviceId\":\"c-1\",\"payloadHex\":\"01755C03673401046865\",\"id\":\"" + key + "\"}");
        var conflicting = client.postUplink(
                channel,
                "em300th",
                "{\"deviceId\":\"c-1\",\"payloadHex\":\"01755C03675E01046865\",\"id\":\"" + key + "\"}");
        var id = UUID.fromString(accepted(first));
        assertThat(accepted(repeat)).isEqualTo(id.toString());
        assertThat(accepted(conflicting)).isEqualTo(id.toString());

        var checker = new InvariantChecker(new InvariantChecker.Sources(
                stack.bootstrapServers(),
                stack.infrastructure().jdbcUrl(),
                stack.infrastructure().jdbcUser(),
                stack.infrastructure().jdbcPassword()));
        var accepted =
                List.of(new InvariantChecker.Accepted(id, "c-1", 0), new InvariantChecker.Accepted(id, "c-1", 0, true));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> checker.check(accepted).conflicts() == 1);

        var report = checker.check(accepted);
        assertThat(report.ok()).as(report.details()).isTrue();
        assertThat(report.stored()).isEqualTo(1);
        assertThat(report.deadLetterCauses()).containsEntry("idempotency-conflict", 1);
        var units = PipelineClient.json(
                        client.getHistory("/data-units?channel=" + channel).body())
                .get("items");
        assertThat(units).hasSize(1);
        assertThat(units.get(0).get("measurements").get("temperature").asDouble())
                .as("the first is kept")
                .isEqualTo(30.8);

        // A run that claims a second conflicting 202 the pipeline never accounted for has lost it.
        var claimed = new ArrayList<>(accepted);
        claimed.add(new InvariantChecker.Accepted(id, "c-1", 0, true));
        assertThat(checker.check(claimed).lostConflicts()).containsExactly(id);
    }

    private long count(String channel, String deviceId) {
        var response = client.getHistory("/data-units/count?channel=" + channel + "&deviceId=" + deviceId);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return PipelineClient.json(response.body()).get("count").asLong();
    }

    private static String accepted(java.net.http.HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        return PipelineClient.json(response.body()).get("id").asString();
    }

    private static String chirpStackUp(String devEui, String deduplicationId) {
        return """
                {"deduplicationId":"%s","time":"2026-11-25T10:00:00.123456789+00:00",
                 "deviceInfo":{"deviceName":"conformance","devEui":"%s","deviceProfileName":"EM300-TH"},
                 "fCnt":12,"fPort":85,"data":"%s","rxInfo":[{"gatewayId":"0016c001f153a14c","rssi":-57,"snr":9.5}]}
                """.formatted(deduplicationId, devEui, EM300TH_BASE64);
    }

    private static String channel(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static List<Case> corpus() throws IOException, URISyntaxException {
        var root = Path.of(
                NetworkServerConformanceIT.class.getResource("/network-servers").toURI());
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(f -> f.toString().endsWith(".json"))
                    .sorted()
                    .map(f -> {
                        var json = PipelineClient.json(read(f));
                        return new Case(
                                root.relativize(f).toString(),
                                json.get("server").asString(),
                                json.path("event").isString()
                                        ? json.get("event").asString()
                                        : null,
                                json.path("messageType").isString()
                                        ? json.get("messageType").asString()
                                        : null,
                                json.get("expect").asString(),
                                json.get("status").asInt(),
                                json.path("problemType").isString()
                                        ? json.get("problemType").asString()
                                        : null,
                                json.get("body"));
                    })
                    .toList();
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
