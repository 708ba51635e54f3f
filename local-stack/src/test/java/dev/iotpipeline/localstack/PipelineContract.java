package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.iotpipeline.kafka.deadletter.DeadLetterHeaders;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/**
 * End-to-end behaviour of the whole pipeline over HTTP, Kafka, WebSocket and PostgreSQL; subclasses say
 * where Kafka and PostgreSQL come from (embedded here, Testcontainers where Docker exists).
 */
abstract class PipelineContract {

    protected abstract LocalStack stack();

    private PipelineClient client() {
        return new PipelineClient(stack());
    }

    private static String channel() {
        return "it-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Test
    void shouldDeliverEveryUplinkToASubscriberStoreItAndRaiseAlarmsForHotDevices() {
        // given a rule and a dashboard subscribed before any data
        var client = client();
        var channel = channel();
        var rule = client.createRule("""
                {"name":"too hot","filter":{"channel":"%s"},"condition":"temperature > 30","severity":"CRITICAL"}
                """.formatted(channel));
        assertThat(rule.statusCode()).isEqualTo(201);
        try (var dashboard = client.dashboard()) {
            dashboard.send("""
                    {"type":"subscribe","id":"units","stream":"data-units","filter":{"channel":"%s"}}""".formatted(channel));
            dashboard.send("""
                    {"type":"subscribe","id":"alarms","stream":"alarms","filter":{"channel":"%s"}}""".formatted(channel));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> dashboard.ofType("subscribed").size() == 2);

            // when 10 devices post 2 uplinks each, devices 0-3 hot (temperature 31.x), the rest not
            int devices = 10;
            int perDevice = 2;
            Set<String> acceptedIds = new HashSet<>();
            for (int round = 0; round < perDevice; round++) {
                for (int d = 0; d < devices; d++) {
                    var hex = d < 4 ? "01755C0367" + le16(310 + d) + "046865" : "0175640367" + le16(200 + d) + "046850";
                    var response = client.postUplink(
                            channel,
                            "em300th",
                            "{\"deviceId\":\"dev-%d\",\"payloadHex\":\"%s\",\"fPort\":85}".formatted(d, hex));
                    assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
                    var body = PipelineClient.json(response.body());
                    assertThat(body.get("receivedAt").asString()).isNotBlank();
                    acceptedIds.add(body.get("id").asString());
                }
            }

            // then every data unit reaches the subscriber, once, with decoded values
            int expected = devices * perDevice;
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> dashboard.ofType("data-unit").size() >= expected);
            var units = dashboard.ofType("data-unit").stream()
                    .map(m -> m.get("data"))
                    .toList();
            assertThat(units).hasSize(expected);
            assertThat(units)
                    .extracting(u -> u.get("uplinkId").asString())
                    .containsExactlyInAnyOrderElementsOf(acceptedIds);
            assertThat(units)
                    .allSatisfy(u -> assertThat(
                                    u.get("measurements").get("humidity").asDouble())
                            .isPositive());
            assertThat(dashboard.ofType("data-unit"))
                    .allSatisfy(
                            m -> assertThat(m.get("subscription").asString()).isEqualTo("units"));

            // and all of them are stored
            await().atMost(Duration.ofSeconds(30)).until(() -> client.storedCount(channel) == expected);

            // and each hot device raised exactly one alarm, delivered live and stored
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> dashboard.ofType("alarm").size() >= 4);
            var alarms =
                    dashboard.ofType("alarm").stream().map(m -> m.get("data")).toList();
            assertThat(alarms)
                    .extracting(a -> a.get("deviceId").asString())
                    .containsExactlyInAnyOrder("dev-0", "dev-1", "dev-2", "dev-3");
            assertThat(alarms).allSatisfy(a -> {
                assertThat(a.get("state").asString()).isEqualTo("ACTIVE");
                assertThat(a.get("severity").asString()).isEqualTo("CRITICAL");
                assertThat(a.get("values").get("temperature").asDouble()).isGreaterThan(30);
                assertThat(a.get("receivedAt").asString()).isNotBlank();
            });
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> PipelineClient.json(client.getHistory("/alarms?channel=" + channel)
                                            .body())
                                    .size()
                            == 4);
            assertThat(PipelineClient.json(client.getHistory("/alarms/count?channel=" + channel + "&state=active")
                                    .body())
                            .get("count")
                            .asLong())
                    .isEqualTo(4);
            assertThat(client.getHistory("/alarms?state=burning").statusCode()).isEqualTo(400);
        }
    }

    @Test
    void shouldPageTheHistoryWithACursor() {
        var client = client();
        var channel = channel();
        for (int i = 0; i < 5; i++) {
            assertThat(client.postUplink(
                                    channel, "em300th", "{\"deviceId\":\"pager\",\"payload\":\"AXVcA2c0AQRoZQ==\"}")
                            .statusCode())
                    .isEqualTo(202);
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> client.storedCount(channel) == 5);

        var first = PipelineClient.json(
                client.getHistory("/data-units?channel=" + channel + "&limit=3").body());
        var second = PipelineClient.json(client.getHistory("/data-units?channel=" + channel + "&limit=3&cursor="
                        + first.get("nextCursor").asString())
                .body());

        assertThat(first.get("items")).hasSize(3);
        assertThat(second.get("items")).hasSize(2);
        assertThat(second.get("nextCursor").isNull()).isTrue();
        var one = first.get("items").get(0);
        assertThat(one.get("measurements").get("temperature").asDouble()).isEqualTo(30.8);
        var byId = PipelineClient.json(
                client.getHistory("/data-units/" + one.get("id").asString()).body());
        assertThat(byId.get("uplinkId").asString())
                .isEqualTo(one.get("uplinkId").asString());
    }

    @Test
    void shouldListTheNewestDataUnitOfEachDeviceMostRecentlyHeardFirstAndPageNewestFirst() {
        var client = client();
        var channel = channel();
        // dev-a twice, then dev-b, then dev-c: 20.0, 21.0, 22.0, 23.0 degrees, one after another
        var readings = List.of(
                Map.entry("dev-a", "C800"),
                Map.entry("dev-a", "D200"),
                Map.entry("dev-b", "DC00"),
                Map.entry("dev-c", "E600"));
        for (var reading : readings) {
            assertThat(client.postUplink(
                                    channel,
                                    "em300th",
                                    "{\"deviceId\":\"%s\",\"payloadHex\":\"0367%s\"}"
                                            .formatted(reading.getKey(), reading.getValue()))
                            .statusCode())
                    .isEqualTo(202);
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> client.storedCount(channel) == 4);

        // A device's latest reading follows its stored data unit within notify.history.latest-interval.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            var latest = PipelineClient.json(
                    client.getHistory("/data-units/latest?channel=" + channel).body());
            assertThat(latest.valueStream().map(u -> u.get("deviceId").asString()))
                    .containsExactly("dev-c", "dev-b", "dev-a");
            assertThat(latest.get(2).get("measurements").get("temperature").asDouble())
                    .isEqualTo(21.0);
        });
        assertThat(PipelineClient.json(client.getHistory("/data-units/latest?channel=" + channel + "&limit=1")
                        .body()))
                .hasSize(1);

        var first = PipelineClient.json(client.getHistory("/data-units?channel=" + channel + "&order=desc&limit=3")
                .body());
        var second = PipelineClient.json(client.getHistory("/data-units?channel=" + channel + "&order=desc&limit=3"
                        + "&cursor=" + first.get("nextCursor").asString())
                .body());
        assertThat(first.get("items")
                        .valueStream()
                        .map(u -> u.get("measurements").get("temperature").asDouble()))
                .containsExactly(23.0, 22.0, 21.0);
        assertThat(second.get("items")
                        .valueStream()
                        .map(u -> u.get("measurements").get("temperature").asDouble()))
                .containsExactly(20.0);
        assertThat(second.get("nextCursor").isNull()).isTrue();
        assertThat(client.getHistory("/data-units?channel=" + channel + "&order=sideways")
                        .statusCode())
                .isEqualTo(400);
    }

    @Test
    void shouldListDevicesWithTheirLatestReadingAndAggregateAMeasurementPerBucket() {
        var client = client();
        var channel = channel();
        // dev-a 20.0 then 21.0 degrees, then dev-b 22.0
        for (var reading :
                List.of(Map.entry("dev-a", "C800"), Map.entry("dev-a", "D200"), Map.entry("dev-b", "DC00"))) {
            assertThat(client.postUplink(
                                    channel,
                                    "em300th",
                                    "{\"deviceId\":\"%s\",\"payloadHex\":\"0367%s\"}"
                                            .formatted(reading.getKey(), reading.getValue()))
                            .statusCode())
                    .isEqualTo(202);
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> client.storedCount(channel) == 3);

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            var listed = PipelineClient.json(
                    client.getHistory("/devices?channel=" + channel).body());
            assertThat(listed.valueStream().map(d -> d.get("deviceId").asString()))
                    .containsExactly("dev-b", "dev-a");
            assertThat(listed.get(1).get("measurements").get("temperature").asDouble())
                    .isEqualTo(21.0);
        });
        var devices = PipelineClient.json(
                client.getHistory("/devices?channel=" + channel).body());
        assertThat(devices.get(1).get("deviceType").asString()).isEqualTo("em300th");
        assertThat(devices.get(1).get("lastSeen").asString()).isNotBlank();

        var from = java.time.Instant.now().minus(Duration.ofDays(1));
        var to = java.time.Instant.now().plus(Duration.ofDays(1));
        var aggregate = PipelineClient.json(client.getHistory("/data-units/aggregate?channel=" + channel
                        + "&deviceId=dev-a&measurement=temperature,humidity&bucket=PT1H&fn=min,max,count&from=" + from
                        + "&to=" + to)
                .body());
        var buckets = aggregate.get("series").get("temperature");
        assertThat(buckets.valueStream().mapToLong(b -> b.get("count").asLong()).sum())
                .isEqualTo(2);
        assertThat(buckets.valueStream()
                        .mapToDouble(b -> b.get("min").asDouble())
                        .min()
                        .orElseThrow())
                .isEqualTo(20.0);
        assertThat(buckets.valueStream()
                        .mapToDouble(b -> b.get("max").asDouble())
                        .max()
                        .orElseThrow())
                .isEqualTo(21.0);
        assertThat(buckets.get(0).has("avg")).as("only the functions asked for").isFalse();
        assertThat(aggregate.get("series").get("humidity").isEmpty())
                .as("no humidity in these payloads")
                .isTrue();

        var estimate = PipelineClient.json(client.getHistory("/data-units/count?channel=" + channel + "&estimate=true")
                .body());
        assertThat(estimate.get("estimated").asBoolean()).isTrue();
        assertThat(estimate.get("count").asLong()).isNotNegative();

        var range = "&from=" + from + "&to=" + to;
        assertThat(client.getHistory("/data-units/aggregate?deviceId=dev-a&measurement=temperature" + range)
                        .statusCode())
                .as("no channel")
                .isEqualTo(400);
        for (var bad : List.of(
                "measurement=temperature" + range,
                "deviceId=dev-a" + range,
                "deviceId=dev-a&measurement=temperature&bucket=PT0.5S" + range,
                "deviceId=dev-a&measurement=temperature&bucket=P1M" + range,
                "deviceId=dev-a&measurement=temperature&fn=median" + range,
                "deviceId=dev-a&measurement=temperature&bucket=PT1S&from=2020-01-01T00:00:00Z&to=" + to,
                "deviceId=dev-a&measurement=temperature&from=" + to + "&to=" + from)) {
            var response = client.getHistory("/data-units/aggregate?channel=" + channel + "&" + bad);
            assertThat(response.statusCode()).as(bad).isEqualTo(400);
            assertThat(response.headers().firstValue("Content-Type"))
                    .as(bad)
                    .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        }
    }

    @Test
    void shouldDeadLetterAnAcceptedUplinkThatCannotBeDecoded() {
        var client = client();
        var response = client.postUplink(channel(), "em300th", "{\"deviceId\":\"broken\",\"payloadHex\":\"0999aa\"}");
        assertThat(response.statusCode()).isEqualTo(202);
        var id = PipelineClient.json(response.body()).get("id").asString();

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
            Map<String, String> reasons = new java.util.HashMap<>();
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                for (var record : consumer.poll(Duration.ofMillis(500))) {
                    var reason = record.headers().lastHeader(DeadLetterHeaders.REASON);
                    // Other tests on the shared stack dead-letter records that are no JSON at all.
                    if (record.value() == null || !record.value().startsWith("{")) {
                        continue;
                    }
                    reasons.put(
                            PipelineClient.json(record.value()).get("id").asString(),
                            reason == null ? null : new String(reason.value(), StandardCharsets.UTF_8));
                }
                return reasons.containsKey(id);
            });
            assertThat(reasons.get(id)).contains("unknown item channel 0x09 type 0x99");
        }
    }

    @Test
    void shouldRejectWebSocketRequestsItCannotServeAndStayConnected() {
        var client = client();
        try (var dashboard = client.dashboard()) {
            dashboard.send("{not json");
            dashboard.send("{\"type\":\"subscribe\",\"id\":\"x\",\"stream\":\"nope\"}");
            dashboard.send("{\"type\":\"ping\",\"id\":\"p\"}");

            await().atMost(Duration.ofSeconds(10))
                    .until(() -> dashboard.ofType("pong").size() == 1);
            assertThat(dashboard.ofType("error"))
                    .extracting(e -> e.get("code").asString())
                    .containsExactly("malformed-json", "unknown-stream");
        }
    }

    private static String le16(int value) {
        return "%02X%02X".formatted(value & 0xFF, (value >> 8) & 0xFF);
    }
}
