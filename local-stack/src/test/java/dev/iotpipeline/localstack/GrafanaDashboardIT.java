package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.rules.alarm.AlarmTopology;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * Every metric name the Grafana dashboard's panels query is one the four services really expose, checked against
 * their /actuator/prometheus after the traffic each panel is about: accepted and rejected uplinks, a dead letter, a
 * rule that raises an alarm, a data unit that does not parse, a live WebSocket subscription, and a dashboard that never reads and is dropped.
 * Several of these meters are registered only when their first event happens.
 */
class GrafanaDashboardIT {

    private static final String HOT = "{\"deviceId\":\"%s\",\"payloadHex\":\"01755C03673401046865\"}";
    private static final String COOL = "{\"deviceId\":\"%s\",\"payloadHex\":\"0175640367C800046850\"}";
    /** What Prometheus 3 asks for by default, so the names are those it will store. */
    private static final String PROMETHEUS_ACCEPT = "application/openmetrics-text;version=1.0.0;escaping=underscores,"
            + "application/openmetrics-text;version=0.0.1;q=0.9,text/plain;version=1.0.0;escaping=underscores;q=0.5,"
            + "text/plain;version=0.0.4;q=0.4,*/*;q=0.1";

    private final LocalStack stack = EmbeddedStack.shared();
    private final PipelineClient client = new PipelineClient(stack);
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void shouldOnlyQueryMetricsTheServicesExpose() throws Exception {
        var dashboard = GrafanaDashboard.read(GrafanaDashboard.IOT_PIPELINE);
        var channel = "grafana-" + UUID.randomUUID().toString().substring(0, 8);
        assertThat(client.createRule("""
                {"name":"hot","filter":{"channel":"%s"},"condition":"temperature > 30","severity":"CRITICAL"}
                """.formatted(channel)).statusCode()).isEqualTo(201);

        // The shared stack closes a session that stays silent for 5 s: this one never reads, so it is dropped.
        try (var live = client.dashboard();
                var stuck = client.stuckDashboard()) {
            live.send(subscribe("units", "data-units", channel));
            live.send(subscribe("alarms", "alarms", channel));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> live.ofType("subscribed").size() == 2);

            assertThat(client.postUplink(channel, "em300th", COOL.formatted("cool-1"))
                            .statusCode())
                    .isEqualTo(202);
            assertThat(client.postUplink(channel, "em300th", "{\"deviceId\":\"bad-1\",\"payloadHex\":\"zz\"}")
                            .statusCode())
                    .isEqualTo(400);
            // Accepted, then dead-lettered by the decoder: no em300th item 0x09/0x99.
            assertThat(client.postUplink(channel, "em300th", "{\"deviceId\":\"broken-1\",\"payloadHex\":\"0999aa\"}")
                            .statusCode())
                    .isEqualTo(202);
            // A data unit that does not parse: rules and the history writer each dead-letter it to events.dead-letter.
            try (var producer = new KafkaProducer<>(
                    Map.<String, Object>of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers()),
                    new StringSerializer(),
                    new ByteArraySerializer())) {
                producer.send(new ProducerRecord<>(
                                PipelineTopic.DATA_UNITS.topicName(),
                                "grafana-poison",
                                "not json".getBytes(StandardCharsets.UTF_8)))
                        .get(10, TimeUnit.SECONDS);
            }
            // A new rule reaches the stream within a second, so a hot uplink sent before that raises nothing:
            // send another until one raises the alarm (while it is active, more hot uplinks raise no second one).
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofSeconds(2))
                    .until(() -> {
                        if (live.ofType("alarm").isEmpty()) {
                            assertThat(client.postUplink(channel, "em300th", HOT.formatted("hot-1"))
                                            .statusCode())
                                    .isEqualTo(202);
                        }
                        return !live.ofType("alarm").isEmpty()
                                && live.ofType("data-unit").size() >= 2;
                    });

            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(() -> assertThat(dashboard.missing(exposedMetricNames()))
                            .as("panels querying metrics that no service exposes (panel -> names)")
                            .isEmpty());
        }
        assertThat(dashboard.metricsByPanel()).isNotEmpty();
    }

    /**
     * Kafka Streams tags a store's metrics by its type; the rules service holds an in-memory (global) and a RocksDB
     * store, and Prometheus took only the in-memory store's meters of each name (with a warning in the log) until
     * those were left out. The binder picks store meters up on its refresh, once a minute.
     */
    @Test
    void rulesExportsTheStateMetricsOfItsRocksDbStore() {
        await().atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofSeconds(2))
                .untilAsserted(() -> assertThat(scrape(stack.rulesUrl() + "/actuator/prometheus")
                                .body())
                        .contains("rocksdb_state_id=\"" + AlarmTopology.ALARM_STATE_STORE + "\"")
                        .doesNotContain("in_memory_state_id"));
    }

    /** The union of the series names the four services expose, as Prometheus would scrape them. */
    private Set<String> exposedMetricNames() {
        var names = new TreeSet<String>();
        for (var url : List.of(stack.ingestUrl(), stack.decoderUrl(), stack.rulesUrl(), stack.notifyUrl())) {
            var response = scrape(url + "/actuator/prometheus");
            assertThat(response.statusCode()).as(url).isEqualTo(200);
            response.body()
                    .lines()
                    .filter(line -> !line.isBlank() && !line.startsWith("#"))
                    .map(line -> line.split("[{ ]", 2)[0])
                    .forEach(names::add);
        }
        return names;
    }

    private HttpResponse<String> scrape(String url) {
        try {
            return http.send(
                    HttpRequest.newBuilder(URI.create(url))
                            .header("Accept", PROMETHEUS_ACCEPT)
                            .timeout(Duration.ofSeconds(10))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(url, e);
        }
    }

    private static String subscribe(String id, String stream, String channel) {
        return "{\"type\":\"subscribe\",\"id\":\"%s\",\"stream\":\"%s\",\"filter\":{\"channel\":\"%s\"}}"
                .formatted(id, stream, channel);
    }
}
