package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.iotpipeline.events.Ids;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** Gap-free reconnects: {@code since} replays what a client missed and joins the live stream without duplicates. */
class SinceReplayIT {

    private final LocalStack stack = EmbeddedStack.shared();
    private final PipelineClient client = new PipelineClient(stack);

    @Test
    void shouldResumeAfterTheLastIdSeenWithNoGapAndNoDuplicateAcrossADisconnectDuringLiveTraffic() {
        var channel = "since-" + UUID.randomUUID().toString().substring(0, 8);
        var expected = ConcurrentHashMap.<String>newKeySet();
        List<String> first;
        List<String> second;
        try (var before = client.dashboard()) {
            before.send(subscribe(channel, null));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> before.ofType("subscribed").size() == 1);

            // given live traffic: 8 devices, 400 uplinks at about 100 per second
            var traffic = CompletableFuture.runAsync(() -> post(channel, 400, expected));

            // when the dashboard drops mid-stream
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> before.ofType("data-unit").size() >= 100);
            before.close();
            await().atMost(Duration.ofSeconds(5)).until(before.closed::isDone);
            first = ids(before);

            // and reconnects with the id of the last data unit it saw, while traffic goes on
            try (var after = client.dashboard()) {
                after.send(subscribe(channel, first.getLast()));
                traffic.join();
                await().atMost(Duration.ofSeconds(60)).until(() -> ids(after).size() + first.size() >= expected.size());
                await().during(Duration.ofSeconds(1))
                        .atMost(Duration.ofSeconds(5))
                        .until(() -> ids(after).size() + first.size() == expected.size());
                second = ids(after);
                assertThat(after.ofType("replayed")).hasSize(1);
            }
        }

        // then the two sessions together saw every data unit exactly once
        var all = new ArrayList<>(first);
        all.addAll(second);
        assertThat(all).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(expected);
        assertThat(first).isNotEmpty();
        assertThat(second).isNotEmpty();
    }

    @Test
    void shouldReplayFromATimeThenContinueLive() {
        var channel = "since-" + UUID.randomUUID().toString().substring(0, 8);
        var start = Instant.now();
        var expected = ConcurrentHashMap.<String>newKeySet();
        post(channel, 30, expected);
        await().atMost(Duration.ofSeconds(30)).until(() -> client.storedCount(channel) == 30);

        try (var dashboard = client.dashboard()) {
            dashboard.send(subscribe(channel, start.toString()));
            await().atMost(Duration.ofSeconds(30)).until(() -> ids(dashboard).size() == 30);
            post(channel, 10, expected);
            await().atMost(Duration.ofSeconds(30)).until(() -> ids(dashboard).size() == 40);

            assertThat(ids(dashboard)).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(expected);
            var replayed = dashboard.ofType("replayed").getFirst();
            assertThat(replayed.get("count").asLong()).isEqualTo(30);
            // the marker sits at the seam: 30 replayed before it, the live ones after
            assertThat(dashboard.messages.indexOf(replayed))
                    .isGreaterThan(dashboard.messages.indexOf(
                            dashboard.ofType("data-unit").get(29)));
        }
    }

    private void post(String channel, int uplinks, Set<String> dataUnitIds) {
        for (int i = 0; i < uplinks; i++) {
            var response = client.postUplink(
                    channel,
                    "em300th",
                    "{\"deviceId\":\"dev-%d\",\"payloadHex\":\"0175640367C800046850\"}".formatted(i % 8));
            assertThat(response.statusCode()).isEqualTo(202);
            var uplinkId = UUID.fromString(
                    PipelineClient.json(response.body()).get("id").asString());
            dataUnitIds.add(Ids.derive(uplinkId, "data-unit").toString());
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static List<String> ids(PipelineClient.Dashboard dashboard) {
        return dashboard.ofType("data-unit").stream()
                .map(m -> m.get("data").get("id").asString())
                .toList();
    }

    private static String subscribe(String channel, String since) {
        return "{\"type\":\"subscribe\",\"id\":\"u\",\"stream\":\"data-units\",\"filter\":{\"channel\":\"%s\"}%s}"
                .formatted(channel, since == null ? "" : ",\"since\":\"" + since + "\"");
    }
}
