package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The services against a broker they can reach only through a SASL/SCRAM listener: one set of
 * {@code spring.kafka.*} properties must reach every Kafka client (listeners, producers, Kafka Streams, the
 * registries' readers, the live feed, replays, re-drive and the invariant checker), since a client without them
 * cannot talk to that listener at all.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class KafkaSaslIT {

    private static final KafkaBroker.Scram SCRAM =
            new KafkaBroker.Scram(EmbeddedStack.freePort(), "pipeline", "pipeline-" + UUID.randomUUID());

    private static KafkaBroker broker;
    private static Postgres postgres;
    private static LocalStack stack;
    private static PipelineClient client;

    @BeforeAll
    static void startServicesThatKnowOnlyTheSaslListener() throws Exception {
        var data = Files.createTempDirectory("iot-pipeline-sasl");
        broker = KafkaBroker.start(
                data.resolve("kafka"),
                EmbeddedStack.freePort(),
                EmbeddedStack.freePort(),
                SCRAM,
                Duration.ofSeconds(90));
        postgres = Postgres.start(data.resolve("postgres"), EmbeddedStack.freePort(), false);
        var base = EmbeddedStack.settings(data);
        var properties = new ArrayList<>(base.properties());
        SCRAM.clientProperties()
                .forEach((key, value) -> properties.add((key.equals("security.protocol")
                                ? "spring.kafka.security.protocol"
                                : "spring.kafka.properties." + key)
                        + "=" + value));
        // This test is about every flow over SASL, not about refusing fast: under CI's two forks the first acks
        // after readiness took longer than stall-after and the probe longer than its 500 ms (ci78), which opened
        // the circuit and refused an uplink with 503. KafkaOutageIT and FaultSuiteIT keep the defaults.
        properties.add("ingest.kafka.circuit.probe-timeout=5s");
        var settings = new LocalStack.Settings(
                data,
                base.ports(),
                base.deviceKey(),
                base.dashboardToken(),
                base.adminToken(),
                base.partitions(),
                properties,
                base.durable());
        stack = LocalStack.startOn(
                new Infrastructure(broker.scramBootstrapServers(), postgres.jdbcUrl(), Postgres.USER, ""), settings);
        client = new PipelineClient(stack);
    }

    @AfterAll
    static void stop() throws Exception {
        if (stack != null) {
            stack.close();
        }
        if (postgres != null) {
            postgres.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void shouldRefuseAClientWithoutTheSaslSettingsOnThatListener() {
        try (var admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                broker.scramBootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                2000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                4000))) {
            assertThatThrownBy(() -> admin.listTopics().names().get(10, TimeUnit.SECONDS))
                    .isNotNull();
        }
    }

    @Test
    void shouldCarryUplinksRulesAlarmsReplaysAndRedrivesOverSaslOnly() throws Exception {
        var channel = "sasl-" + UUID.randomUUID().toString().substring(0, 8);
        var type = "sasl-js-" + UUID.randomUUID().toString().substring(0, 8);
        // the decoder's registry reads device-types, and ingest's catalog learns the new type from it
        assertThat(client.put(stack.decoderUrl() + "/device-types/" + type, """
                {"codec":"javascript","script":"function decodeUplink(input) { if (input.bytes[0] === 255) { return { errors: ['bad'] }; } return { data: { temperature: input.bytes[0] } }; }"}
                """).statusCode())
                .isEqualTo(201);
        // the rules registry reads rules, Kafka Streams evaluates them
        assertThat(client.createRule("""
                {"name":"hot over sasl","filter":{"channel":"%s"},"condition":"temperature > 30","severity":"MAJOR"}
                """.formatted(channel)).statusCode()).isEqualTo(201);
        var start = Instant.now();
        try (var live = client.dashboard()) {
            // the live feed tails data-units
            live.send(subscribe(channel, null));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> live.ofType("subscribed").size() == 1);

            var accepted = new ArrayList<InvariantChecker.Accepted>();
            for (int seq = 0; seq < 3; seq++) {
                var body = "{\"deviceId\":\"d1\",\"payloadHex\":\"%02X\"}".formatted(seq == 2 ? 40 : 20 + seq);
                var response = await().atMost(Duration.ofSeconds(15))
                        .until(() -> client.postUplink(channel, type, body), r -> r.statusCode() != 404);
                assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
                accepted.add(new InvariantChecker.Accepted(
                        UUID.fromString(
                                PipelineClient.json(response.body()).get("id").asString()),
                        "d1",
                        seq));
            }
            // the listeners decode and store, the producers write
            await().atMost(Duration.ofSeconds(30)).until(() -> client.storedCount(channel) == 3);
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> live.ofType("data-unit").size() == 3);
            // Streams raised the alarm for the hot reading
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> PipelineClient.json(client.getHistory("/alarms/count?channel=" + channel)
                                            .body())
                                    .get("count")
                                    .asLong()
                            == 1);

            // a replay reads data-units from a position of its own
            try (var late = client.dashboard()) {
                late.send(subscribe(channel, start.toString()));
                await().atMost(Duration.ofSeconds(15))
                        .until(() -> late.ofType("replayed").size() == 1);
                assertThat(late.ofType("data-unit")).hasSize(3);
            }

            // the invariant checker reads the topics with the same client settings
            var kafkaClient = new HashMap<String, Object>(SCRAM.clientProperties());
            kafkaClient.put("bootstrap.servers", broker.scramBootstrapServers());
            var report = new InvariantChecker(
                            new InvariantChecker.Sources(kafkaClient, postgres.jdbcUrl(), Postgres.USER, ""))
                    .check(accepted);
            assertThat(report.ok()).as(report.details()).isTrue();
        }

        // a dead letter, and its re-drive, which reads the dead-letter topic
        assertThat(client.postUplink(channel, type, "{\"deviceId\":\"d2\",\"payloadHex\":\"FF\"}")
                        .statusCode())
                .isEqualTo(202);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> PipelineClient.json(client.post(
                                                stack.decoderUrl() + "/dead-letters/redrive?deviceType=" + type,
                                                Map.of("Authorization", "Bearer " + PipelineClient.ADMIN_TOKEN),
                                                "")
                                        .body())
                                .get("scanned")
                                .asLong()
                        >= 1);
    }

    private static String subscribe(String channel, String since) {
        return "{\"type\":\"subscribe\",\"id\":\"s\",\"stream\":\"data-units\",\"filter\":{\"channel\":\"%s\"}%s}"
                .formatted(channel, since == null ? "" : ",\"since\":\"" + since + "\"");
    }
}
