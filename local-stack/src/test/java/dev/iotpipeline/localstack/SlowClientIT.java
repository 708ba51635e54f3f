package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** One client that never reads loses only its own messages; the others keep receiving everything, promptly. */
class SlowClientIT {

    private static final java.util.regex.Pattern SERVER_CLOSES = java.util.regex.Pattern.compile(
            "notify_messages_dropped_total\\{cause=\"(too-slow-closed|idle-closed)\".*");

    private final LocalStack stack = EmbeddedStack.shared();
    private final PipelineClient client = new PipelineClient(stack);

    @Test
    void shouldIsolateAClientThatNeverReadsFromTheOthers() throws Exception {
        var channel = "slow-" + UUID.randomUUID().toString().substring(0, 8);
        double closesBefore = client.notifyMetric(SERVER_CLOSES);
        double sessionsBefore = client.notifyMetric("notify_sessions ");
        try (var stuck = client.stuckDashboard();
                var fast = client.dashboard();
                var alsoFast = client.dashboard()) {
            for (var dashboard : List.of(stuck, fast, alsoFast)) {
                dashboard.send(subscribe(channel));
            }
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> fast.ofType("subscribed").size() == 1
                            && alsoFast.ofType("subscribed").size() == 1);

            // when 3,000 data units arrive over ten seconds, far more than the stuck client's buffers hold
            int total = 3000;
            for (int from = 0; from < total; from += 30) {
                int first = from;
                var items = IntStream.range(from, from + 30)
                        .mapToObj(i -> "{\"deviceId\":\"b-%d\",\"payloadHex\":\"0175640367C800046850\"}"
                                .formatted(first + i % 50))
                        .toList();
                assertThat(client.postBatch(channel, "em300th", items).statusCode())
                        .isEqualTo(202);
                Thread.sleep(100);
            }

            // then the readers got every message, promptly
            await().atMost(Duration.ofSeconds(60)).until(() -> units(fast) == total && units(alsoFast) == total);
            for (var dashboard : List.of(fast, alsoFast)) {
                var latencies = latencies(dashboard);
                assertThat(latencies.get((int) (total * 0.95) - 1)).as("p95 ms").isLessThan(1000);
                assertThat(dashboard.ofType("dropped")).isEmpty();
                assertThat(dashboard.closed).isNotDone();
            }
            // and the stuck client was disconnected by the server: behind (1013) or silent (4408), whichever first
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> client.notifyMetric("notify_sessions ") == sessionsBefore + 2);
            assertThat(client.notifyMetric(SERVER_CLOSES)).isGreaterThan(closesBefore);
        }
    }

    /** Milliseconds from ingest to arrival for each data unit, sorted. */
    private static List<Long> latencies(PipelineClient.Dashboard dashboard) {
        var result = new ArrayList<Long>();
        for (int i = 0; i < dashboard.messages.size(); i++) {
            var m = dashboard.messages.get(i);
            if ("data-unit".equals(m.path("type").asString())) {
                var receivedAt = Instant.parse(m.get("data").get("receivedAt").asString());
                result.add(dashboard.arrivals.get(i) - receivedAt.toEpochMilli());
            }
        }
        result.sort(null);
        return result;
    }

    private static int units(PipelineClient.Dashboard dashboard) {
        return dashboard.ofType("data-unit").size();
    }

    private static String subscribe(String channel) {
        return "{\"type\":\"subscribe\",\"id\":\"u\",\"stream\":\"data-units\",\"filter\":{\"channel\":\"%s\"}}"
                .formatted(channel);
    }
}
