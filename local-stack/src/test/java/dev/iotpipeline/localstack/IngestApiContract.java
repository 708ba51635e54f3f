package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The device-facing API of ingest-service, end to end: every format, every error cause, keys and limits. */
abstract class IngestApiContract {

    private static final String EM300TH_HEX = "01755C03673401046865";
    private static final Path FIXTURES = Path.of("../ingest-service/src/test/resources/webhooks");

    protected abstract LocalStack stack();

    private PipelineClient client() {
        return new PipelineClient(stack());
    }

    private static String channel() {
        return "api-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static String uplink(String deviceId) {
        return "{\"deviceId\":\"%s\",\"payloadHex\":\"%s\"}".formatted(deviceId, EM300TH_HEX);
    }

    @Test
    void shouldAcceptABatchAndStoreEveryItem() {
        var client = client();
        var channel = channel();

        var response = client.postUplink(
                channel, "em300th", "[" + uplink("b-1") + "," + uplink("b-2") + "," + uplink("b-3") + "]");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        var body = PipelineClient.json(response.body());
        assertThat(body.get("accepted").asInt()).isEqualTo(3);
        assertThat(body.get("items")).hasSize(3);
        await().atMost(Duration.ofSeconds(30)).until(() -> client.storedCount(channel) == 3);
    }

    @Test
    void shouldRejectABatchWithABadItemNamingItsIndexAndWriteNothing() {
        var client = client();
        var channel = channel();

        var response = client.postUplink(
                channel,
                "em300th",
                "[" + uplink("same") + "," + "{\"deviceId\":\"same\",\"payload\":\"not base64!\"}]");

        assertProblem(response, 400, "invalid-base64");
        assertThat(PipelineClient.json(response.body()).get("index").asInt()).isEqualTo(1);
        // A later uplink of the same device lands on the same partition after anything the batch could have written.
        assertThat(client.postUplink(channel, "em300th", uplink("same")).statusCode())
                .isEqualTo(202);
        await().atMost(Duration.ofSeconds(30)).until(() -> client.storedCount(channel) >= 1);
        assertThat(client.storedCount(channel)).isEqualTo(1);
    }

    @Test
    void shouldAcceptDecodedMeasurements() {
        var client = client();
        var channel = channel();

        var response = client.postIngest(
                "/sensor-data/" + channel + "/decoded",
                PipelineClient.DEVICE_KEY,
                "{\"deviceId\":\"soil-1\",\"measurements\":{\"moisture\":31.5,\"temperature\":18},"
                        + "\"attributes\":{\"firmware\":\"2.1\"}}");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        var unit = awaitOnlyDataUnit(client, channel);
        assertThat(unit.get("deviceType").asString()).isEqualTo("json");
        assertThat(unit.get("measurements").get("moisture").asDouble()).isEqualTo(31.5);
        assertThat(unit.get("attributes").get("firmware").asString()).isEqualTo("2.1");
    }

    @Test
    void shouldAcceptTheThingsStackUplinkMessagesAsSent() throws Exception {
        var client = client();
        var channel = channel();
        var body = Files.readString(FIXTURES.resolve("tts-uplink-em300th.json"));

        var response =
                client.postIngest("/sensor-data/" + channel + "/webhooks/tts/em300th", PipelineClient.DEVICE_KEY, body);

        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        var unit = awaitOnlyDataUnit(client, channel);
        assertThat(unit.get("deviceId").asString()).isEqualTo("em300-th-1");
        assertThat(unit.get("measurements").get("temperature").asDouble()).isEqualTo(30.8);
        assertThat(unit.get("measuredAt").asString()).isEqualTo("2020-02-12T15:15:45.789585559Z");
        assertThat(unit.get("attributes").get("network").get("rssi").asInt()).isEqualTo(-35);
        // The network server retrying the same message is stored once.
        assertThat(client.postIngest(
                                "/sensor-data/" + channel + "/webhooks/tts/em300th", PipelineClient.DEVICE_KEY, body)
                        .statusCode())
                .isEqualTo(202);
        assertThat(PipelineClient.json(response.body()).get("id").asString())
                .isEqualTo(unit.get("uplinkId").asString());
    }

    @Test
    void shouldAcceptChirpStackUpEventsAndAcknowledgeOtherEvents() throws Exception {
        var client = client();
        var channel = channel();
        var body = Files.readString(FIXTURES.resolve("chirpstack-up-em300th.json"));

        var join = client.postIngest(
                "/sensor-data/" + channel + "/webhooks/chirpstack/em300th?event=join",
                PipelineClient.DEVICE_KEY,
                "{\"deviceInfo\":{\"devEui\":\"24e124136b502217\"}}");
        var up = client.postIngest(
                "/sensor-data/" + channel + "/webhooks/chirpstack/em300th?event=up", PipelineClient.DEVICE_KEY, body);

        assertThat(join.statusCode()).isEqualTo(204);
        assertThat(up.statusCode()).as(up.body()).isEqualTo(202);
        var unit = awaitOnlyDataUnit(client, channel);
        assertThat(unit.get("deviceId").asString()).isEqualTo("24e124136b502217");
        assertThat(unit.get("measurements").get("humidity").asDouble()).isEqualTo(50.5);
        assertThat(unit.get("attributes").get("network").get("snr").asDouble()).isEqualTo(10.5);
    }

    @Test
    void shouldStoreARetriedUplinkOnce() {
        var client = client();
        var channel = channel();
        var retried = "{\"deviceId\":\"r-1\",\"payloadHex\":\"%s\",\"id\":\"msg-42\"}".formatted(EM300TH_HEX);

        var first = client.postUplink(channel, "em300th", retried);
        var second = client.postUplink(channel, "em300th", retried);
        var viaHeader = client.postIngest(
                "/sensor-data/" + channel + "/encoded/em300th",
                PipelineClient.DEVICE_KEY,
                uplink("r-1"),
                "Idempotency-Key",
                "msg-42");

        assertThat(PipelineClient.json(second.body()).get("id"))
                .isEqualTo(PipelineClient.json(first.body()).get("id"));
        assertThat(PipelineClient.json(viaHeader.body()).get("id"))
                .isEqualTo(PipelineClient.json(first.body()).get("id"));
        assertThat(client.postUplink(channel, "em300th", uplink("r-1")).statusCode())
                .isEqualTo(202);
        await().atMost(Duration.ofSeconds(30)).until(() -> client.storedCount(channel) >= 2);
        assertThat(client.storedCount(channel)).isEqualTo(2);
    }

    @Test
    void shouldRejectAKeyBoundToAnotherChannel() {
        var client = client();

        var own = client.postIngest(
                "/sensor-data/" + EmbeddedStack.BOUND_CHANNEL + "/encoded/em300th",
                EmbeddedStack.BOUND_KEY,
                uplink("k-1"));
        var other = client.postIngest(
                "/sensor-data/" + channel() + "/encoded/em300th", EmbeddedStack.BOUND_KEY, uplink("k-1"));

        assertThat(own.statusCode()).isEqualTo(202);
        assertProblem(other, 403, "channel-forbidden");
    }

    @Test
    void shouldRateLimitPerDeviceKeyWith429AndRetryAfter() {
        var client = client();
        var path = "/sensor-data/" + channel() + "/encoded/em300th";

        HttpResponse<String> limited = null;
        for (int i = 0; i < 10 && limited == null; i++) {
            var response = client.postIngest(path, EmbeddedStack.LIMITED_KEY, uplink("l-1"));
            limited = response.statusCode() == 429 ? response : null;
        }

        assertThat(limited).as("a 429 within 10 requests at 2/s").isNotNull();
        assertProblem(limited, 429, "rate-limited");
        assertThat(limited.headers().firstValue("Retry-After"))
                .hasValueSatisfying(
                        seconds -> assertThat(Integer.parseInt(seconds)).isBetween(1, 5));
        // Other keys are not affected.
        assertThat(client.postIngest(path, PipelineClient.DEVICE_KEY, uplink("l-2"))
                        .statusCode())
                .isEqualTo(202);
    }

    @Test
    void shouldAnswerEveryBadRequestWithAPreciseProblem() {
        var client = client();
        var url = stack().ingestUrl() + "/sensor-data/it-bad/encoded/em300th";
        var json = Map.of("Content-Type", "application/json");
        var auth = Map.of("Content-Type", "application/json", "Authorization", "Bearer " + PipelineClient.DEVICE_KEY);
        var valid = "{\"deviceId\":\"d\",\"payloadHex\":\"0175\"}";

        assertProblem(client.post(url, json, valid), 401, "missing-credentials");
        assertProblem(
                client.post(url, Map.of("Content-Type", "application/json", "Authorization", "Bearer nope"), valid),
                401,
                "invalid-credentials");
        assertProblem(client.post(url, auth, "{\"deviceId\":"), 400, "malformed-json");
        assertProblem(client.post(url, auth, "{\"deviceId\":\"d\",\"payload\":\"***\"}"), 400, "invalid-base64");
        assertProblem(client.post(url, auth, "{\"deviceId\":\"d\",\"payloadHex\":\"0G\"}"), 400, "invalid-hex");
        assertProblem(client.post(url, auth, "{\"payloadHex\":\"0175\"}"), 400, "missing-field");
        assertProblem(
                client.post(url, auth, "{\"deviceId\":\"d\",\"payloadHex\":\"0175\",\"fPort\":300}"),
                400,
                "invalid-field");
        assertProblem(client.post(url, auth, "[]"), 400, "empty-batch");
        assertProblem(
                client.post(stack().ingestUrl() + "/sensor-data/it-bad/encoded/no-such-type", auth, valid),
                404,
                "unknown-device-type");
        assertProblem(
                client.post(stack().ingestUrl() + "/sensor-data/Bad_Channel/encoded/em300th", auth, valid),
                400,
                "invalid-name");
        assertProblem(
                client.post(url, auth, "{\"deviceId\":\"d\",\"payloadHex\":\"" + "00".repeat(65537) + "\"}"),
                413,
                "payload-too-large");
        assertProblem(
                client.post(url, auth, "[" + (valid + ",").repeat(30000) + valid + "]"), 413, "request-too-large");
        assertProblem(
                client.post(
                        url,
                        Map.of("Content-Type", "text/plain", "Authorization", "Bearer " + PipelineClient.DEVICE_KEY),
                        valid),
                415,
                "unsupported-media-type");
        assertProblem(
                client.createRule("{\"name\":\"x\",\"condition\":\"temperature > > 1\"}"), 400, "invalid-expression");
    }

    @Test
    void shouldDescribeTheApiInOpenApi() {
        var spec = PipelineClient.json(
                client().get(stack().ingestUrl() + "/v3/api-docs").body());

        assertThat(spec.get("openapi").asString()).startsWith("3.");
        assertThat(spec.get("paths").propertyNames())
                .contains(
                        "/sensor-data/{channel}/encoded/{deviceType}",
                        "/sensor-data/{channel}/decoded",
                        "/sensor-data/{channel}/webhooks/tts/{deviceType}",
                        "/sensor-data/{channel}/webhooks/chirpstack/{deviceType}");
    }

    @Test
    void shouldReportReadinessIncludingKafka() {
        var readiness = client().get(stack().ingestUrl() + "/actuator/health/readiness");

        assertThat(readiness.statusCode()).isEqualTo(200);
        assertThat(readiness.body()).contains("\"kafka\"");
    }

    private static JsonNode awaitOnlyDataUnit(PipelineClient client, String channel) {
        await().atMost(Duration.ofSeconds(30)).until(() -> client.storedCount(channel) >= 1);
        var items = PipelineClient.json(
                        client.getHistory("/data-units?channel=" + channel).body())
                .get("items");
        assertThat(items).hasSize(1);
        return items.get(0);
    }

    static void assertProblem(HttpResponse<String> response, int status, String type) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(ct -> assertThat(ct).startsWith("application/problem+json"));
        JsonNode problem = PipelineClient.json(response.body());
        assertThat(problem.get("type").asString()).endsWith("/problems/" + type);
        assertThat(problem.get("detail").asString()).isNotBlank();
    }
}
