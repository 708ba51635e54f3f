package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.http.WebSocketHandshakeException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** The {@code /ws} protocol on the embedded stack: filters, several subscriptions, auth and channel scope. */
class LiveDeliveryIT {

    private static final String HOT = "{\"deviceId\":\"%s\",\"payloadHex\":\"01755C03673401046865\"}";
    private static final String COOL = "{\"deviceId\":\"%s\",\"payloadHex\":\"0175640367C800046850\"}";

    private final LocalStack stack = EmbeddedStack.shared();
    private final PipelineClient client = new PipelineClient(stack);

    private static String channel() {
        return "live-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Test
    void shouldDeliverToEachSubscriptionOfAConnectionOnlyWhatItsFilterSelects() {
        var channel = channel();
        assertThat(client.createRule("""
                {"name":"hot","filter":{"channel":"%s"},"condition":"temperature > 30","severity":"CRITICAL"}
                """.formatted(channel)).statusCode()).isEqualTo(201);
        try (var dashboard = client.dashboard()) {
            // given one connection with five subscriptions
            dashboard.send(subscribe("all", "data-units", "{\"channel\":\"%s\"}".formatted(channel)));
            dashboard.send(subscribe(
                    "one-device", "data-units", "{\"channel\":\"%s\",\"deviceId\":\"d-2\"}".formatted(channel)));
            dashboard.send(subscribe(
                    "other-type", "data-units", "{\"channel\":\"%s\",\"deviceType\":\"lht65\"}".formatted(channel)));
            dashboard.send(subscribe(
                    "critical", "alarms", "{\"channel\":\"%s\",\"severity\":\"CRITICAL\"}".formatted(channel)));
            dashboard.send(
                    subscribe("minor", "alarms", "{\"channel\":\"%s\",\"severity\":\"MINOR\"}".formatted(channel)));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> dashboard.ofType("subscribed").size() == 5);

            // when three devices post, one of them hot
            client.postUplink(channel, "em300th", HOT.formatted("d-1"));
            client.postUplink(channel, "em300th", COOL.formatted("d-2"));
            client.postUplink(channel, "em300th", COOL.formatted("d-3"));

            // then each subscription gets exactly its share, in its own envelope
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> delivered(dashboard, "all") == 3 && delivered(dashboard, "critical") == 1);
            assertThat(dashboard.ofType("data-unit"))
                    .filteredOn(m -> m.get("subscription").asString().equals("one-device"))
                    .singleElement()
                    .satisfies(m ->
                            assertThat(m.get("data").get("deviceId").asString()).isEqualTo("d-2"));
            assertThat(delivered(dashboard, "other-type")).isZero();
            assertThat(delivered(dashboard, "minor")).isZero();

            // and after an unsubscribe that subscription gets nothing more while the others go on
            dashboard.send("{\"type\":\"unsubscribe\",\"id\":\"all\"}");
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> dashboard.ofType("unsubscribed").size() == 1);
            client.postUplink(channel, "em300th", COOL.formatted("d-2"));
            await().atMost(Duration.ofSeconds(30)).until(() -> delivered(dashboard, "one-device") == 2);
            assertThat(delivered(dashboard, "all")).isEqualTo(3);
        }
    }

    @Test
    void shouldAnswerBadRequestsWithErrorsAndKeepTheConnection() {
        try (var dashboard = client.dashboard()) {
            dashboard.send("{\"type\":\"subscribe\",\"stream\":\"data-units\"}");
            dashboard.send(
                    subscribe("s", "data-units", "{\"channel\":\"x\"}").replace("}}", "},\"since\":\"last tuesday\"}"));
            dashboard.send("{\"type\":\"unsubscribe\",\"id\":\"never\"}");
            dashboard.send("{\"type\":\"launch\",\"id\":\"l\"}");
            dashboard.send(
                    "{\"type\":\"subscribe\",\"id\":\"f\",\"stream\":\"data-units\",\"filter\":{\"colour\":\"red\"}}");
            dashboard.send("{not json");
            dashboard.send("{\"type\":\"subscribe\",\"id\":\"x\",\"stream\":\"nope\"}");
            dashboard.send("{\"type\":\"ping\",\"id\":\"still-there\"}");

            await().atMost(Duration.ofSeconds(10))
                    .until(() -> dashboard.ofType("pong").size() == 1);
            assertThat(dashboard.ofType("error"))
                    .extracting(e -> e.get("code").asString())
                    .containsExactly(
                            "missing-id",
                            "bad-since",
                            "unknown-subscription",
                            "unknown-type",
                            "bad-filter",
                            "malformed-json",
                            "unknown-stream");
        }
    }

    @Test
    void shouldRefuseTheUpgradeWithoutAValidToken() {
        assertThatThrownBy(() -> client.dashboard("not-a-token"))
                .isInstanceOf(CompletionException.class)
                .cause()
                .isInstanceOfSatisfying(
                        WebSocketHandshakeException.class,
                        e -> assertThat(e.getResponse().statusCode()).isEqualTo(401));
    }

    @Test
    void shouldKeepAScopedTokenInsideItsChannelsOverWebSocketAndRest() {
        var outside = channel();
        try (var dashboard = client.browserDashboard(EmbeddedStack.SCOPED_TOKEN)) {
            // given a browser-style connection with a token scoped to one channel
            assertThat(dashboard.subprotocol()).isEqualTo("bearer");
            dashboard.send(subscribe("outside", "data-units", "{\"channel\":\"%s\"}".formatted(outside)));
            dashboard.send(subscribe("everything", "data-units", "{}"));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> dashboard.ofType("subscribed").size() == 1
                            && dashboard.ofType("error").size() == 1);
            assertThat(dashboard.ofType("error").getFirst().get("code").asString())
                    .isEqualTo("channel-forbidden");

            // when data arrives in another channel and then in its own
            client.postUplink(outside, "em300th", COOL.formatted("elsewhere"));
            client.postUplink(EmbeddedStack.SCOPED_CHANNEL, "em300th", COOL.formatted("mine"));

            // then only its own channel's data reaches it
            await().atMost(Duration.ofSeconds(30)).until(() -> delivered(dashboard, "everything") == 1);
            await().during(Duration.ofSeconds(1))
                    .atMost(Duration.ofSeconds(3))
                    .until(() -> delivered(dashboard, "everything") == 1);
            assertThat(dashboard
                            .ofType("data-unit")
                            .getFirst()
                            .get("data")
                            .get("deviceId")
                            .asString())
                    .isEqualTo("mine");
        }
        // and the history refuses it the other channel too, while an unscoped query counts only its own
        await().atMost(Duration.ofSeconds(30)).until(() -> client.storedCount(outside) == 1);
        var scoped = client.getHistory("/data-units/count?channel=" + outside, EmbeddedStack.SCOPED_TOKEN);
        assertThat(scoped.statusCode()).isEqualTo(403);
        assertThat(PipelineClient.json(scoped.body()).get("type").asString()).endsWith("/channel-forbidden");
        var unscoped = client.getHistory("/data-units?deviceId=elsewhere", EmbeddedStack.SCOPED_TOKEN);
        assertThat(PipelineClient.json(unscoped.body()).get("items")).isEmpty();
        assertThat(client.getHistory("/data-units/count?channel=" + outside, "not-a-token")
                        .statusCode())
                .isEqualTo(401);
    }

    @Test
    void shouldPingSessionsAndCloseOnesThatNeverAnswer() {
        try (var answering = client.dashboard();
                var stuck = client.stuckDashboard()) {
            // then the answering client is pinged every heartbeat and stays open
            await().atMost(Duration.ofSeconds(10)).until(() -> answering.pings.get() >= 2);
            // and a client that never reads, so never answers a ping, is closed after the idle timeout
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> client.notifyMetric("notify_messages_dropped_total{cause=\"idle-closed\"") >= 1);
            assertThat(answering.closed).isNotDone();
        }
    }

    private static String subscribe(String id, String stream, String filter) {
        return "{\"type\":\"subscribe\",\"id\":\"%s\",\"stream\":\"%s\",\"filter\":%s}".formatted(id, stream, filter);
    }

    private static long delivered(PipelineClient.Dashboard dashboard, String subscription) {
        return dashboard.messages.stream()
                .filter(m -> subscription.equals(m.path("subscription").asString()))
                .count();
    }
}
