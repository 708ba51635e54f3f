package dev.iotpipeline.localstack;

import static dev.iotpipeline.localstack.PipelineClient.ADMIN_TOKEN;
import static dev.iotpipeline.localstack.PipelineClient.DASHBOARD_TOKEN;
import static dev.iotpipeline.localstack.PipelineClient.DEVICE_KEY;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocketHandshakeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import org.assertj.core.api.SoftAssertions;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every endpoint family of every service against every kind of caller: no credential (401), an unknown secret
 * (401), the wrong role (403), a credential of another channel (403) and the right one (its normal answer),
 * each refusal as a problem that names its type; then the errors every service must answer as problems.
 */
class SecurityMatrixIT {

    private static final String OTHER_CHANNEL = "it-matrix-other";
    private static final String UPLINK = "{\"deviceId\":\"matrix-1\",\"payloadHex\":\"01755C03673401046865\"}";
    private static final String RULE = "{\"name\":\"matrix\",\"filter\":{\"channel\":\"" + OTHER_CHANNEL
            + "\"},\"condition\":\"temperature > 30\",\"severity\":\"MINOR\"}";

    private static LocalStack stack;
    private static PipelineClient client;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** Who calls: the secret sent, or null for none. */
    enum Caller {
        NONE(null),
        UNKNOWN("not-a-known-secret"),
        DEVICE(DEVICE_KEY),
        BOUND_DEVICE(EmbeddedStack.BOUND_KEY),
        DASHBOARD(DASHBOARD_TOKEN),
        SCOPED_DASHBOARD(EmbeddedStack.SCOPED_TOKEN),
        ADMIN(ADMIN_TOKEN);

        final String secret;

        Caller(String secret) {
            this.secret = secret;
        }
    }

    /** One request of an endpoint family, and what each caller gets: a status, or a status and problem type. */
    record Case(String family, String method, String url, String body, Map<Caller, Expect> expected) {}

    record Expect(int status, String problemType) {

        static Expect ok(int status) {
            return new Expect(status, null);
        }

        static Expect problem(int status, String type) {
            return new Expect(status, type);
        }
    }

    private static final Expect MISSING = Expect.problem(401, "missing-credentials");
    private static final Expect UNKNOWN = Expect.problem(401, "invalid-credentials");
    private static final Expect WRONG_ROLE = Expect.problem(403, "wrong-role");
    private static final Expect OTHER_CHANNEL_REFUSED = Expect.problem(403, "channel-forbidden");

    @BeforeAll
    static void startStack() {
        stack = EmbeddedStack.shared();
        client = new PipelineClient(stack);
    }

    @Test
    void everyEndpointFamilyAnswersEachKindOfCallerWithTheRightStatusAndProblem() {
        var typeName = "matrix-" + UUID.randomUUID().toString().substring(0, 8);
        var ruleId =
                PipelineClient.json(client.createRule(RULE).body()).get("id").asString();
        var cases = new ArrayList<Case>();

        // ingest: device keys, per channel.
        for (var path : List.of("/encoded/em300th", "/decoded", "/webhooks/chirpstack/em300th?event=status")) {
            var body = path.equals("/decoded")
                    ? "{\"deviceId\":\"matrix-1\",\"measurements\":{\"temperature\":21.5}}"
                    : path.contains("chirpstack") ? "{}" : UPLINK;
            int accepted = path.contains("chirpstack") ? 204 : 202;
            cases.add(new Case(
                    "ingest " + path,
                    "POST",
                    stack.ingestUrl() + "/sensor-data/" + EmbeddedStack.BOUND_CHANNEL + path,
                    body,
                    deviceOnly(accepted)));
            cases.add(new Case(
                    "ingest " + path + " (other channel)",
                    "POST",
                    stack.ingestUrl() + "/sensor-data/" + OTHER_CHANNEL + path,
                    body,
                    withBoundDevice(deviceOnly(accepted), OTHER_CHANNEL_REFUSED)));
        }

        // decoder: reads for dashboards and admins, changes for admins.
        cases.add(
                new Case("decoder GET /device-types", "GET", stack.decoderUrl() + "/device-types", null, readers(200)));
        cases.add(
                new Case("decoder GET /measurements", "GET", stack.decoderUrl() + "/measurements", null, readers(200)));
        cases.add(new Case(
                "decoder PUT /device-types/{t}",
                "PUT",
                stack.decoderUrl() + "/device-types/" + typeName,
                "{\"codec\":\"em300th\"}",
                adminOnly(201)));
        cases.add(new Case(
                "decoder GET /device-types/{t}",
                "GET",
                stack.decoderUrl() + "/device-types/" + typeName,
                null,
                readers(200)));
        cases.add(new Case(
                "decoder POST /device-types/{t}/test",
                "POST",
                stack.decoderUrl() + "/device-types/" + typeName + "/test",
                "{\"payloadHex\":\"01755C\"}",
                adminOnly(200)));
        cases.add(new Case(
                "decoder DELETE /device-types/{t}",
                "DELETE",
                stack.decoderUrl() + "/device-types/" + typeName,
                null,
                adminOnly(204)));
        cases.add(new Case(
                "decoder POST /dead-letters/redrive",
                "POST",
                stack.decoderUrl() + "/dead-letters/redrive?deviceType=" + typeName,
                "",
                adminOnly(200)));

        // rules: the same split.
        cases.add(new Case("rules GET /rules", "GET", stack.rulesUrl() + "/rules", null, readers(200)));
        cases.add(new Case("rules GET /rules/{id}", "GET", stack.rulesUrl() + "/rules/" + ruleId, null, readers(200)));
        cases.add(
                new Case("rules PUT /rules/{id}", "PUT", stack.rulesUrl() + "/rules/" + ruleId, RULE, adminOnly(200)));
        cases.add(new Case("rules POST /rules", "POST", stack.rulesUrl() + "/rules", RULE, adminOnly(201)));

        // notify: history, registered devices and alarms for dashboards and admins, limited to the token's channels.
        for (var path : List.of(
                "/data-units",
                "/data-units/count",
                "/data-units/latest",
                "/devices/registered",
                "/alarms",
                "/alarms/count")) {
            cases.add(new Case(
                    "notify GET " + path,
                    "GET",
                    stack.notifyUrl() + path + "?channel=" + EmbeddedStack.SCOPED_CHANNEL,
                    null,
                    readers(200)));
            cases.add(new Case(
                    "notify GET " + path + " (other channel)",
                    "GET",
                    stack.notifyUrl() + path + "?channel=" + OTHER_CHANNEL,
                    null,
                    withScopedDashboard(readers(200), OTHER_CHANNEL_REFUSED)));
        }
        cases.add(new Case(
                "notify GET /data-units/{id} (unknown)",
                "GET",
                stack.notifyUrl() + "/data-units/" + UUID.randomUUID(),
                null,
                readers(404)));
        cases.add(new Case(
                "notify POST /alarms/{id}/acknowledge (unknown)",
                "POST",
                stack.notifyUrl() + "/alarms/" + UUID.randomUUID() + "/acknowledge",
                "",
                readers(404)));

        // Every service: probes and scrapers need nothing; the other actuator endpoints are for admins.
        for (var url : List.of(stack.ingestUrl(), stack.decoderUrl(), stack.rulesUrl(), stack.notifyUrl())) {
            cases.add(new Case(url + " /actuator/health", "GET", url + "/actuator/health", null, open(200)));
            cases.add(new Case(url + " /actuator/prometheus", "GET", url + "/actuator/prometheus", null, open(200)));
            cases.add(new Case(url + " /actuator/metrics", "GET", url + "/actuator/metrics", null, adminOnly(200)));
        }

        var softly = new SoftAssertions();
        for (var test : cases) {
            for (var entry : test.expected().entrySet()) {
                var response = send(test, entry.getKey());
                var what = test.family() + " as " + entry.getKey() + ": " + response.body();
                softly.assertThat(response.statusCode())
                        .as(what)
                        .isEqualTo(entry.getValue().status());
                if (entry.getValue().problemType() != null) {
                    softly.assertThat(response.headers()
                                    .firstValue("Content-Type")
                                    .orElse(""))
                            .as(what)
                            .startsWith("application/problem+json");
                    softly.assertThat(PipelineClient.json(response.body())
                                    .path("type")
                                    .asString())
                            .as(what)
                            .isEqualTo("https://iot-pipeline.dev/problems/"
                                    + entry.getValue().problemType());
                }
            }
        }
        softly.assertAll();
    }

    @Test
    void aDeviceCredentialPostsOnlyAsItsDeviceAndFollowsDisableRotationRevocationAndPolicy() throws Exception {
        var channel = "it-registry-" + UUID.randomUUID().toString().substring(0, 8);
        var registry = stack.ingestUrl() + "/registry/" + channel;
        var post = stack.ingestUrl() + "/sensor-data/" + channel + "/encoded/em300th";
        var own = "{\"deviceId\":\"reg-1\",\"payloadHex\":\"01755C03673401046865\"}";
        var other = own.replace("reg-1", "reg-2");
        var first = "reg-1-first-secret-" + UUID.randomUUID();

        // The stack's device key is bound to every channel, so every channel is known here (RegistrarTest has the
        // unknown one); the policy is what a channel no credential names would need first.
        assertThat(send("PUT", registry + "/policy", "{\"unknownDevices\":\"open\"}", ADMIN_TOKEN)
                        .statusCode())
                .isEqualTo(200);
        assertProblem(send("PUT", registry + "/devices/reg-1", "{}", DEVICE_KEY), 403, "wrong-role");
        assertProblem(send("GET", registry + "/devices", null, DASHBOARD_TOKEN), 403, "wrong-role");
        assertProblem(send("GET", registry + "/devices", null, null), 401, "missing-credentials");
        var created = send(
                "PUT",
                registry + "/devices/reg-1",
                "{\"deviceType\":\"em300th\",\"labels\":{\"room\":\"12\"},\"secret\":\"" + first + "\"}",
                ADMIN_TOKEN);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        assertThat(created.body()).doesNotContain(first);

        // own device 202, another device 403, another channel 403
        assertThat(send("POST", post, own, first).statusCode()).isEqualTo(202);
        assertProblem(send("POST", post, other, first), 403, "wrong-device");
        assertProblem(
                send("POST", stack.ingestUrl() + "/sensor-data/" + OTHER_CHANNEL + "/encoded/em300th", own, first),
                403,
                "channel-forbidden");

        // disabled 403 (the channel key too), enabled again 202
        send("PUT", registry + "/devices/reg-1", "{\"deviceType\":\"em300th\",\"enabled\":false}", ADMIN_TOKEN);
        assertProblem(send("POST", post, own, first), 403, "device-disabled");
        assertProblem(send("POST", post, own, DEVICE_KEY), 403, "device-disabled");
        send("PUT", registry + "/devices/reg-1", "{\"deviceType\":\"em300th\"}", ADMIN_TOKEN);
        assertThat(send("POST", post, own, first).statusCode()).isEqualTo(202);

        // rotation: old and new both 202 during the overlap, the old one 401 after it
        var issued = PipelineClient.json(
                send("POST", registry + "/devices/reg-1/credentials", "{\"overlapSeconds\":2}", ADMIN_TOKEN)
                        .body());
        var second = issued.get("secret").asString();
        assertThat(send("POST", post, own, first).statusCode()).isEqualTo(202);
        assertThat(send("POST", post, own, second).statusCode()).isEqualTo(202);
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> send("POST", post, own, first).statusCode() == 401);
        assertProblem(send("POST", post, own, first), 401, "invalid-credentials");
        assertThat(send("POST", post, own, second).statusCode()).isEqualTo(202);

        // revoked 401
        var revoke = send(
                "DELETE",
                registry + "/devices/reg-1/credentials/" + issued.get("id").asString(),
                null,
                ADMIN_TOKEN);
        assertThat(revoke.statusCode()).as(revoke.body()).isEqualTo(204);
        assertProblem(send("POST", post, own, second), 401, "invalid-credentials");

        // a channel of registered devices only: an unknown device is refused under the channel key
        assertThat(send("POST", post, other, DEVICE_KEY).statusCode()).isEqualTo(202);
        send("PUT", registry + "/policy", "{\"unknownDevices\":\"registered\"}", ADMIN_TOKEN);
        assertProblem(send("POST", post, other, DEVICE_KEY), 403, "unregistered-device");
        assertThat(send("POST", post, own, DEVICE_KEY).statusCode()).isEqualTo(202);
    }

    @Test
    void aBulkImportAppliesItsValidLinesNamesTheOthersByLineAndIsIdempotent() {
        var channel = "it-import-" + UUID.randomUUID().toString().substring(0, 8);
        var registry = stack.ingestUrl() + "/registry/" + channel;
        send("PUT", registry + "/policy", "{\"unknownDevices\":\"open\"}", ADMIN_TOKEN);
        var csv = "deviceId,deviceType,enabled,labels\nimp-1,em300th,true,room=1\nimp 2,em300th,true,\n"
                + "imp-3,em300th,false,\n";

        var first = sendTyped("POST", registry + "/import", csv, "text/csv", ADMIN_TOKEN);
        var again = sendTyped("POST", registry + "/import", csv, "text/csv", ADMIN_TOKEN);
        var ndjson = sendTyped(
                "POST", registry + "/import", "{\"deviceId\":\"imp-4\"}\n", "application/x-ndjson", ADMIN_TOKEN);

        assertProblem(first, 422, "import-errors");
        var report = PipelineClient.json(first.body());
        assertThat(report.get("created").asInt()).isEqualTo(2);
        assertThat(report.get("errors").get(0).get("line").asInt()).isEqualTo(3);
        assertThat(PipelineClient.json(again.body()).get("unchanged").asInt()).isEqualTo(2);
        assertThat(ndjson.statusCode()).as(ndjson.body()).isEqualTo(200);
        var page = PipelineClient.json(
                send("GET", registry + "/devices?limit=2", null, ADMIN_TOKEN).body());
        assertThat(page.get("total").asInt()).isEqualTo(3);
        assertThat(page.get("next").asString()).isEqualTo("imp-3");
        assertProblem(
                sendTyped("POST", registry + "/import", "deviceId,colour\nx,red\n", "text/csv", ADMIN_TOKEN),
                400,
                "invalid-import");
        var plain = sendTyped("POST", registry + "/import", "deviceId\nx\n", "text/plain", ADMIN_TOKEN);
        assertProblem(plain, 415, "unsupported-media-type");
        assertThat(PipelineClient.json(plain.body()).get("detail").asString())
                .contains("text/csv", "application/x-ndjson");
    }

    @Test
    void aDashboardTokenMayNotAcknowledgeOrReadAnAlarmOfAnotherChannel() {
        var channel = "it-matrix-alarm-" + UUID.randomUUID().toString().substring(0, 8);
        var rule = client.createRule("{\"name\":\"matrix hot\",\"filter\":{\"channel\":\"" + channel
                + "\"},\"condition\":\"temperature > 30\",\"severity\":\"MINOR\"}");
        assertThat(rule.statusCode()).as(rule.body()).isEqualTo(201);
        var alarmId = new String[1];
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(300))
                .until(() -> {
                    // 31 °C: the rule's condition holds (it may take a moment before the new rule is on the stream).
                    client.postUplink(
                            channel, "em300th", "{\"deviceId\":\"hot-1\",\"payloadHex\":\"01755C03673601046865\"}");
                    var alarms = PipelineClient.json(
                            client.getHistory("/alarms?channel=" + channel).body());
                    if (alarms.isEmpty()) {
                        return false;
                    }
                    alarmId[0] = alarms.get(0).get("alarmId").asString();
                    return true;
                });
        var ack = stack.notifyUrl() + "/alarms/" + alarmId[0] + "/acknowledge";
        var read = stack.notifyUrl() + "/alarms/" + alarmId[0];

        assertProblem(send("GET", read, null, EmbeddedStack.SCOPED_TOKEN), 403, "channel-forbidden");
        assertProblem(send("POST", ack, "", EmbeddedStack.SCOPED_TOKEN), 403, "channel-forbidden");
        assertProblem(send("POST", ack, "", DEVICE_KEY), 403, "wrong-role");
        assertProblem(send("POST", ack, "", null), 401, "missing-credentials");
        assertThat(send("GET", read, null, DASHBOARD_TOKEN).statusCode()).isEqualTo(200);
        assertThat(send("POST", ack, "", DASHBOARD_TOKEN).statusCode()).isEqualTo(202);
    }

    @Test
    void theLiveFeedTakesDashboardAndAdminTokensAndScopesSubscriptionsToTheirChannels() throws Exception {
        assertThat(handshakeStatus(null)).isEqualTo(401);
        assertThat(handshakeStatus("not-a-known-secret")).isEqualTo(401);
        assertThat(handshakeStatus(DEVICE_KEY)).isEqualTo(403);

        try (var scoped = client.dashboard(EmbeddedStack.SCOPED_TOKEN);
                var admin = client.dashboard(ADMIN_TOKEN);
                var browser = client.browserDashboard(EmbeddedStack.SCOPED_TOKEN)) {
            scoped.send("{\"type\":\"subscribe\",\"id\":\"other\",\"stream\":\"data-units\",\"filter\":{\"channel\":\""
                    + OTHER_CHANNEL + "\"}}");
            scoped.send("{\"type\":\"subscribe\",\"id\":\"own\",\"stream\":\"data-units\",\"filter\":{\"channel\":\""
                    + EmbeddedStack.SCOPED_CHANNEL + "\"}}");
            admin.send("{\"type\":\"subscribe\",\"id\":\"any\",\"stream\":\"alarms\",\"filter\":{\"channel\":\""
                    + OTHER_CHANNEL + "\"}}");
            browser.send("{\"type\":\"subscribe\",\"id\":\"own\",\"stream\":\"alarms\"}");
            Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .until(() ->
                            scoped.messages.size() >= 2 && !admin.messages.isEmpty() && !browser.messages.isEmpty());

            assertThat(scoped.ofType("error"))
                    .singleElement()
                    .satisfies(e -> assertThat(e.get("code").asString()).isEqualTo("channel-forbidden"));
            assertThat(scoped.ofType("subscribed"))
                    .singleElement()
                    .satisfies(m -> assertThat(m.get("id").asString()).isEqualTo("own"));
            assertThat(admin.ofType("subscribed")).hasSize(1);
            assertThat(browser.subprotocol()).isEqualTo("bearer");
            assertThat(browser.ofType("subscribed")).hasSize(1);
        }
    }

    @Test
    void theLiveFeedBoundsMessageSizeSubscriptionsPerConnectionAndConnectionsPerCredential() throws Exception {
        try (var dashboard = client.dashboard(DASHBOARD_TOKEN)) {
            for (int i = 0; i <= 20; i++) {
                dashboard.send("{\"type\":\"subscribe\",\"id\":\"s" + i + "\",\"stream\":\"alarms\"}");
            }
            // re-subscribing an id it holds replaces it, so it is allowed at the limit
            dashboard.send("{\"type\":\"subscribe\",\"id\":\"s0\",\"stream\":\"data-units\"}");
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> dashboard.messages.size() >= 22);

            assertThat(dashboard.ofType("subscribed")).hasSize(21);
            assertThat(dashboard.ofType("error")).singleElement().satisfies(e -> {
                assertThat(e.get("code").asString()).isEqualTo("too-many-subscriptions");
                assertThat(e.get("id").asString()).isEqualTo("s20");
            });
        }

        try (var dashboard = client.dashboard(DASHBOARD_TOKEN)) {
            dashboard.send("{\"type\":\"ping\",\"id\":\"" + "x".repeat(20_000) + "\"}");
            assertThat(dashboard.closed.get(10, java.util.concurrent.TimeUnit.SECONDS))
                    .isEqualTo(1009);
        }

        var held = new ArrayList<PipelineClient.Dashboard>();
        try {
            // The server counts a connection after the client sees the handshake, and releases an earlier
            // test's connection after the client closed it: each held connection is one a pong proved counted,
            // and one refused for a slot an earlier test still holds is retried, so the next one is the 41st.
            while (held.size() < 40) {
                held.add(Awaitility.await()
                        .atMost(Duration.ofSeconds(20))
                        .until(this::countedAdminConnection, java.util.Objects::nonNull));
            }
            try (var oneTooMany = client.dashboard(ADMIN_TOKEN)) {
                assertThat(oneTooMany.closed.get(10, java.util.concurrent.TimeUnit.SECONDS))
                        .isEqualTo(1008);
            }
            assertThat(held).noneMatch(d -> d.closed.isDone());
        } finally {
            held.forEach(PipelineClient.Dashboard::close);
        }
        // closing frees the slots: a new connection of the same credential stays open
        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            try (var again = client.dashboard(ADMIN_TOKEN)) {
                again.send("{\"type\":\"ping\",\"id\":\"p\"}");
                Awaitility.await()
                        .atMost(Duration.ofSeconds(3))
                        .until(() -> !again.ofType("pong").isEmpty());
            }
        });
    }

    /** An admin connection the server has counted (it answered a ping), or null after closing a refused one. */
    private PipelineClient.Dashboard countedAdminConnection() throws Exception {
        var dashboard = client.dashboard(ADMIN_TOKEN);
        dashboard.send("{\"type\":\"ping\",\"id\":\"held\"}");
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> !dashboard.ofType("pong").isEmpty() || dashboard.closed.isDone());
        if (dashboard.closed.isDone()) {
            dashboard.close();
            return null;
        }
        return dashboard;
    }

    @Test
    void everyServiceAnswersErrorsAsProblemsWithoutInternals() {
        var softly = new SoftAssertions();
        var admin = ADMIN_TOKEN;
        var checks = new LinkedHashMap<String, HttpResponse<String>>();
        for (var url : List.of(stack.ingestUrl(), stack.decoderUrl(), stack.rulesUrl(), stack.notifyUrl())) {
            checks.put(url + " unknown path", send("GET", url + "/no-such-endpoint", null, admin));
            checks.put(url + " body over the limit", send("POST", url + "/rules", "x".repeat(1_100_000), admin));
        }
        checks.put("decoder wrong method", send("POST", stack.decoderUrl() + "/device-types", "{}", admin));
        checks.put(
                "decoder wrong content type",
                sendTyped("PUT", stack.decoderUrl() + "/device-types/x", "codec=json", "text/plain", admin));
        checks.put("decoder malformed JSON", send("PUT", stack.decoderUrl() + "/device-types/x", "{\"codec\":", admin));
        checks.put(
                "decoder JSON too deep",
                send(
                        "PUT",
                        stack.decoderUrl() + "/device-types/x",
                        "{\"codec\":\"json\",\"mapping\":" + "{\"a\":".repeat(80) + "1" + "}".repeat(80) + "}",
                        admin));
        checks.put(
                "decoder script the engine refuses",
                send(
                        "PUT",
                        stack.decoderUrl() + "/device-types/x",
                        "{\"codec\":\"javascript\",\"script\":\"function decodeUplink(input) {\\n return {data:{n: 10n}}; }\"}",
                        admin));
        checks.put(
                "rules unknown enum",
                send(
                        "POST",
                        stack.rulesUrl() + "/rules",
                        "{\"name\":\"x\",\"condition\":\"temperature > 1\",\"severity\":\"loud\"}",
                        admin));
        checks.put(
                "rules wrong type",
                send(
                        "POST",
                        stack.rulesUrl() + "/rules",
                        "{\"name\":\"x\",\"condition\":\"temperature > 1\",\"enabled\":\"sometimes\"}",
                        admin));
        checks.put(
                "rules too long",
                send(
                        "POST",
                        stack.rulesUrl() + "/rules",
                        "{\"name\":\"x\",\"condition\":\"" + "temperature > 1 && ".repeat(200) + "true\"}",
                        admin));
        checks.put("notify bad parameter", send("GET", stack.notifyUrl() + "/data-units?from=yesterday", null, admin));
        checks.put("notify bad limit", send("GET", stack.notifyUrl() + "/alarms?limit=0", null, admin));
        checks.put("notify bad id", send("GET", stack.notifyUrl() + "/data-units/not-a-uuid", null, admin));

        checks.forEach((what, response) -> {
            var as = what + ": " + response.body();
            softly.assertThat(response.statusCode()).as(as).isBetween(400, 499);
            softly.assertThat(response.headers().firstValue("Content-Type").orElse(""))
                    .as(as)
                    .startsWith("application/problem+json");
            var problem = PipelineClient.json(response.body());
            softly.assertThat(problem.path("type").asString()).as(as).startsWith("https://iot-pipeline.dev/problems/");
            softly.assertThat(problem.path("status").asInt()).as(as).isEqualTo(response.statusCode());
            softly.assertThat(response.body())
                    .as(as)
                    .doesNotContain("java.", "dev.iotpipeline", "Exception:", "\"trace\"", ADMIN_TOKEN);
        });
        softly.assertThat(PipelineClient.json(checks.get("rules unknown enum").body())
                        .path("detail")
                        .asString())
                .isEqualTo("severity: 'loud' is not one of CRITICAL, MAJOR, MINOR, WARNING, INFO");
        softly.assertThat(PipelineClient.json(checks.get("rules wrong type").body())
                        .path("field")
                        .asString())
                .isEqualTo("enabled");
        var refused = PipelineClient.json(
                checks.get("decoder script the engine refuses").body());
        softly.assertThat(refused.path("type").asString()).endsWith("/invalid-script");
        softly.assertThat(refused.path("line").asInt()).isEqualTo(2);
        // A vendor codec that once crashed the engine's analysis (a 500) is a codec like any other now.
        softly.assertThat(send(
                                "PUT",
                                stack.decoderUrl() + "/device-types/catch-without-binding",
                                "{\"codec\":\"javascript\",\"script\":\"function decodeUplink(input) { try { x(); } catch { }"
                                        + " return {data:{}}; }\"}",
                                admin)
                        .statusCode())
                .isIn(200, 201);
        softly.assertThat(
                        checks.get(stack.decoderUrl() + " body over the limit").statusCode())
                .isEqualTo(413);
        softly.assertAll();
    }

    @Test
    void requestsTheServletContainerRefusesItselfAreProblemsToo() throws Exception {
        for (var url : List.of(stack.ingestUrl(), stack.decoderUrl(), stack.rulesUrl(), stack.notifyUrl())) {
            var port = URI.create(url).getPort();
            for (var request : List.of(
                    "GET /data-units/%zz HTTP/1.1\r\nHost: x\r\n\r\n",
                    "GET /a/..%2f..%2fetc HTTP/1.1\r\nHost: x\r\n\r\n",
                    "GET /rules HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + "a".repeat(20_000) + "\r\n\r\n")) {
                var answer = raw(port, request);
                assertThat(answer)
                        .as(url + " " + request.substring(0, 30))
                        .startsWith("HTTP/1.1 400")
                        .contains("application/problem+json")
                        .contains("/problems/bad-request")
                        .doesNotContainIgnoringCase("tomcat")
                        .doesNotContain("<html");
            }
        }
    }

    /** One request written as bytes, for what an HTTP client library would refuse to send. */
    private static String raw(int port, String request) throws Exception {
        try (var socket = new java.net.Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            var answer = new StringBuilder();
            var in = socket.getInputStream();
            var buffer = new byte[8192];
            for (int n; (n = in.read(buffer)) > 0 && !answer.toString().contains("}"); ) {
                answer.append(new String(buffer, 0, n, java.nio.charset.StandardCharsets.ISO_8859_1));
            }
            return answer.toString();
        }
    }

    private int handshakeStatus(String secret) {
        var builder = http.newWebSocketBuilder();
        if (secret != null) {
            builder.header("Authorization", "Bearer " + secret);
        }
        try {
            builder.buildAsync(URI.create(stack.notifyWebSocketUrl()), new java.net.http.WebSocket.Listener() {})
                    .join()
                    .abort();
            return 101;
        } catch (CompletionException e) {
            if (e.getCause() instanceof WebSocketHandshakeException refused) {
                return refused.getResponse().statusCode();
            }
            throw e;
        }
    }

    private static void assertProblem(HttpResponse<String> response, int status, String type) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(PipelineClient.json(response.body()).path("type").asString())
                .isEqualTo("https://iot-pipeline.dev/problems/" + type);
    }

    private HttpResponse<String> send(Case test, Caller caller) {
        return send(test.method(), test.url(), test.body(), caller.secret);
    }

    private HttpResponse<String> send(String method, String url, String body, String secret) {
        return sendTyped(method, url, body, "application/json", secret);
    }

    private HttpResponse<String> sendTyped(String method, String url, String body, String contentType, String secret) {
        var request = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(30))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", contentType);
        }
        if (secret != null) {
            request.header("Authorization", "Bearer " + secret);
        }
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(method + " " + url, e);
        }
    }

    /** Device keys only; the all-channel key and the key bound to the channel both succeed. */
    private static Map<Caller, Expect> deviceOnly(int status) {
        var expected = refusals();
        expected.put(Caller.DASHBOARD, WRONG_ROLE);
        expected.put(Caller.SCOPED_DASHBOARD, WRONG_ROLE);
        expected.put(Caller.ADMIN, WRONG_ROLE);
        expected.put(Caller.DEVICE, Expect.ok(status));
        expected.put(Caller.BOUND_DEVICE, Expect.ok(status));
        return expected;
    }

    /** Dashboard and admin tokens; device keys are the wrong role. */
    private static Map<Caller, Expect> readers(int status) {
        var expected = refusals();
        expected.put(Caller.DEVICE, WRONG_ROLE);
        expected.put(Caller.BOUND_DEVICE, WRONG_ROLE);
        expected.put(Caller.DASHBOARD, Expect.ok(status));
        expected.put(Caller.SCOPED_DASHBOARD, Expect.ok(status));
        expected.put(Caller.ADMIN, Expect.ok(status));
        return expected;
    }

    /** The admin token only; dashboards, even with every channel, are the wrong role. */
    private static Map<Caller, Expect> adminOnly(int status) {
        var expected = refusals();
        expected.put(Caller.DEVICE, WRONG_ROLE);
        expected.put(Caller.BOUND_DEVICE, WRONG_ROLE);
        expected.put(Caller.DASHBOARD, WRONG_ROLE);
        expected.put(Caller.SCOPED_DASHBOARD, WRONG_ROLE);
        expected.put(Caller.ADMIN, Expect.ok(status));
        return expected;
    }

    private static Map<Caller, Expect> open(int status) {
        var expected = new LinkedHashMap<Caller, Expect>();
        for (var caller : Caller.values()) {
            // An unknown secret is refused even where none is needed: a client that sends one has a bug.
            expected.put(caller, caller == Caller.UNKNOWN ? UNKNOWN : Expect.ok(status));
        }
        return expected;
    }

    private static Map<Caller, Expect> refusals() {
        var expected = new LinkedHashMap<Caller, Expect>();
        expected.put(Caller.NONE, MISSING);
        expected.put(Caller.UNKNOWN, UNKNOWN);
        return expected;
    }

    private static Map<Caller, Expect> withBoundDevice(Map<Caller, Expect> expected, Expect bound) {
        expected.put(Caller.BOUND_DEVICE, bound);
        return expected;
    }

    private static Map<Caller, Expect> withScopedDashboard(Map<Caller, Expect> expected, Expect scoped) {
        expected.put(Caller.SCOPED_DASHBOARD, scoped);
        return expected;
    }
}
