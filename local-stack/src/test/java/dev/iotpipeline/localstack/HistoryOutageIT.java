package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.iotpipeline.events.Ids;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** PostgreSQL stopped and restarted under load: the history writer waits and stores every data unit once. */
class HistoryOutageIT {

    @TempDir
    Path data;

    @Test
    void shouldStoreEveryDataUnitExactlyOnceWhenPostgresStopsAndRestartsUnderLoad() throws Exception {
        try (var stack = EmbeddedStack.start(data)) {
            var client = new PipelineClient(stack);
            var channel = "outage";
            Set<String> expected = ConcurrentHashMap.newKeySet();
            var running = new AtomicBoolean(true);

            // given steady traffic of about 50 uplinks per second
            var load = Thread.ofVirtual().start(() -> {
                int i = 0;
                while (running.get()) {
                    var response = client.postUplink(
                            channel,
                            "em300th",
                            "{\"deviceId\":\"o-%d\",\"payloadHex\":\"0175640367C800046850\"}".formatted(i++ % 10));
                    assertThat(response.statusCode()).isEqualTo(202);
                    expected.add(Ids.derive(
                                    UUID.fromString(PipelineClient.json(response.body())
                                            .get("id")
                                            .asString()),
                                    "data-unit")
                            .toString());
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            await().atMost(Duration.ofSeconds(30)).until(() -> client.storedCount(channel) > 50);

            // when PostgreSQL is down while 150 more uplinks are accepted, and traffic goes on after it is back
            stack.restartPostgres(() -> {
                int before = expected.size();
                await().atMost(Duration.ofSeconds(30)).until(() -> expected.size() >= before + 150);
                // notify says it is not ready while its database is away
                await().atMost(Duration.ofSeconds(30)).until(() -> readiness(stack) == 503);
            });
            await().atMost(Duration.ofSeconds(60)).until(() -> readiness(stack) == 200);
            int restarted = expected.size();
            await().atMost(Duration.ofSeconds(30)).until(() -> expected.size() >= restarted + 100);
            running.set(false);
            load.join();

            // then every accepted uplink is stored, once
            await().atMost(Duration.ofSeconds(90)).until(() -> client.storedCount(channel) == expected.size());
            Set<String> stored = new HashSet<>();
            String cursor = null;
            do {
                var page = PipelineClient.json(client.getHistory("/data-units?channel=" + channel + "&limit=1000"
                                + (cursor == null ? "" : "&cursor=" + cursor))
                        .body());
                page.get("items")
                        .forEach(u ->
                                assertThat(stored.add(u.get("id").asString())).isTrue());
                cursor = page.get("nextCursor").isNull()
                        ? null
                        : page.get("nextCursor").asString();
            } while (cursor != null);
            assertThat(stored).isEqualTo(expected);
        }
    }

    private static int readiness(LocalStack stack) {
        try {
            return java.net.http.HttpClient.newHttpClient()
                    .send(
                            java.net.http.HttpRequest.newBuilder(
                                            java.net.URI.create(stack.notifyUrl() + "/actuator/health/readiness"))
                                    .timeout(Duration.ofSeconds(15))
                                    .GET()
                                    .build(),
                            java.net.http.HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (Exception e) {
            return -1;
        }
    }
}
