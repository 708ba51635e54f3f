package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaOutageIT {

    private static final String UPLINK = "{\"deviceId\":\"o-%d\",\"payloadHex\":\"01755C03673401046865\"}";

    @TempDir
    Path data;

    @Test
    void shouldAnswer503QuicklyWhileKafkaIsDownAndLoseNothingItAccepted() throws Exception {
        try (var stack = EmbeddedStack.start(data)) {
            var client = new PipelineClient(stack);
            int accepted = 0;
            for (int i = 0; i < 5; i++) {
                accepted += client.postUplink("outage", "em300th", UPLINK.formatted(i)).statusCode() == 202 ? 1 : 0;
            }

            // when the broker stops
            stack.broker().stop();

            // then requests get a 503 with Retry-After within the bounded send time, and readiness goes down
            var statuses = new ArrayList<Integer>();
            for (int i = 0; i < 3; i++) {
                long started = System.nanoTime();
                var response = client.postUplink("outage", "em300th", UPLINK.formatted(100 + i));
                var elapsed = Duration.ofNanos(System.nanoTime() - started);
                statuses.add(response.statusCode());
                assertThat(elapsed).isLessThan(Duration.ofSeconds(8));
                if (response.statusCode() == 503) {
                    IngestApiContract.assertProblem(response, 503, "kafka-unavailable");
                    assertThat(response.headers().firstValue("Retry-After")).isPresent();
                }
            }
            assertThat(statuses).containsOnly(503);
            assertThat(client.get(stack.ingestUrl() + "/actuator/health/readiness").statusCode()).isEqualTo(503);

            // when it comes back, uplinks are accepted again
            stack.broker().restart(Duration.ofSeconds(90));
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).until(() ->
                    client.postUplink("outage", "em300th", UPLINK.formatted(200)).statusCode() == 202);
            accepted += 1;

            // and everything answered 202 is stored; nothing answered 503 had to be
            int expected = accepted;
            await().atMost(Duration.ofSeconds(60)).until(() -> client.storedCount("outage") >= expected);
            assertThat(client.storedCount("outage")).isBetween((long) expected, (long) expected + 3);
        }
    }
}
