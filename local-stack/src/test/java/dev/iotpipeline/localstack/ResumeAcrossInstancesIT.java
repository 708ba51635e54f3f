package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.iotpipeline.events.Ids;
import dev.iotpipeline.notify.NotifyApplication;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A dashboard that reconnects to another notify instance with the last id it saw gets exactly the events it
 * missed, then live ones: instances share no state, only the topics.
 */
class ResumeAcrossInstancesIT {

    private final LocalStack stack = EmbeddedStack.shared();
    private final PipelineClient client = new PipelineClient(stack);
    private final HttpClient http = HttpClient.newHttpClient();
    private final String channel = "hop-" + UUID.randomUUID().toString().substring(0, 8);
    private final List<String> posted = Collections.synchronizedList(new ArrayList<>());
    /** One always-connected dashboard per instance, to know when each instance's live feed has dispatched. */
    private final List<Session> watchers = new ArrayList<>();

    @Test
    void shouldResumeExactlyAtAnotherInstanceThenBackAtTheFirst() {
        var seen = new ArrayList<String>();

        // given a dashboard on instance A that received every event so far
        try (var watcherA = watch(stack.notifyWebSocketUrl());
                var atA = open(stack.notifyWebSocketUrl())) {
            atA.send(subscribe(null));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> atA.dashboard().ofType("subscribed").size() == 1);
            post(10);
            awaitReceived(atA, posted.size());
            seen.addAll(ids(atA));
        }

        try (var instanceB = startNotify();
                var watcherA = watch(stack.notifyWebSocketUrl());
                var watcherB = watch(webSocketUrl(instanceB))) {
            // when more arrive while it is away, and it reconnects to instance B, which never delivered its last id
            var missed = post(10);
            try (var atB = open(webSocketUrl(instanceB))) {
                atB.send(subscribe(seen.getLast()));

                // then B replays exactly what it missed, then goes live
                awaitReplayed(atB, missed);
                var live = post(6);
                awaitReceived(atB, missed.size() + live.size());
                assertThat(ids(atB)).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(concat(missed, live));
                seen.addAll(ids(atB));
            }

            // and the same holds back at A, for an id B delivered
            missed = post(10);
            try (var backAtA = open(stack.notifyWebSocketUrl())) {
                backAtA.send(subscribe(seen.getLast()));
                awaitReplayed(backAtA, missed);
                var live = post(6);
                awaitReceived(backAtA, missed.size() + live.size());
                assertThat(ids(backAtA))
                        .doesNotHaveDuplicates()
                        .containsExactlyInAnyOrderElementsOf(concat(missed, live));
                seen.addAll(ids(backAtA));
            }
        }

        assertThat(seen).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(posted);
    }

    /**
     * Posts {@code spread} uplinks over several devices, one at a time, then a batch of eight for one device,
     * whose ids share a millisecond and sort in no particular order; returns their data-unit ids. A client
     * stops after the batch: every instance delivered everything before it earlier (the watchers wait for
     * that), so its last id pins exactly what the client had. Events of several partitions that reach two
     * instances in different orders (a lagging feed) make a single id ambiguous; that is the documented limit.
     */
    private List<String> post(int spread) {
        var ids = new ArrayList<String>();
        for (int i = 0; i < spread; i++) {
            var response = client.postUplink(
                    channel,
                    "em300th",
                    "{\"deviceId\":\"dev-%d\",\"payloadHex\":\"0175640367C800046850\"}".formatted(i % 6));
            assertThat(response.statusCode()).isEqualTo(202);
            ids.add(dataUnitId(PipelineClient.json(response.body()).get("id").asString()));
            pause(15);
        }
        // the batch goes out only once every instance dispatched everything before it, so it is the last thing
        // each of them delivered
        long published = posted.size() + ids.size();
        await().atMost(Duration.ofSeconds(30)).until(() -> client.storedCount(channel) == published);
        awaitWatchers(published);
        var batch = new ArrayList<String>();
        for (int i = 0; i < 8; i++) {
            batch.add("{\"deviceId\":\"dev-burst\",\"payloadHex\":\"0175640367C800046850\"}");
        }
        var response = client.postBatch(channel, "em300th", batch);
        assertThat(response.statusCode()).isEqualTo(202);
        for (var item : PipelineClient.json(response.body()).get("items")) {
            ids.add(dataUnitId(item.get("id").asString()));
        }
        posted.addAll(ids);
        awaitWatchers(posted.size());
        return ids;
    }

    /** Waits until every connected watcher received all of the first {@code total} posted events it could see. */
    private void awaitWatchers(long total) {
        watchers.removeIf(watcher -> watcher.dashboard().closed.isDone());
        for (var watcher : watchers) {
            await().atMost(Duration.ofSeconds(30)).until(() -> ids(watcher).size() >= total - watcher.before());
        }
    }

    /** A dashboard that stays connected to an instance for the rest of the test, subscribed live. */
    private Session watch(String url) {
        var watcher = open(url, posted.size());
        watcher.send(subscribe(null));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> watcher.dashboard().ofType("subscribed").size() == 1);
        watchers.add(watcher);
        return watcher;
    }

    private static String dataUnitId(String uplinkId) {
        return Ids.derive(UUID.fromString(uplinkId), "data-unit").toString();
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A second notify instance on the same broker and PostgreSQL, started the way the stack starts its own. */
    private ConfigurableApplicationContext startNotify() {
        var args = ServiceProperties.of(Service.NOTIFY, stack.settings(), stack.infrastructure(), 0, true).stream()
                .map(property -> "--" + property)
                .toArray(String[]::new);
        var app = NotifyApplication.application();
        app.setRegisterShutdownHook(false);
        return app.run(args);
    }

    private static String webSocketUrl(ConfigurableApplicationContext notify) {
        return "ws://127.0.0.1:" + notify.getEnvironment().getProperty("local.server.port") + "/ws";
    }

    private Session open(String url) {
        return open(url, 0);
    }

    private Session open(String url, long before) {
        var dashboard = new PipelineClient.Dashboard(true);
        var socket = http.newWebSocketBuilder()
                .header("Authorization", "Bearer " + PipelineClient.DASHBOARD_TOKEN)
                .buildAsync(URI.create(url), dashboard)
                .join();
        return new Session(dashboard, socket, before);
    }

    private static void awaitReplayed(Session session, List<String> missed) {
        await().atMost(Duration.ofSeconds(30))
                .until(() -> session.dashboard().ofType("replayed").size() == 1);
        assertThat(session.dashboard().ofType("gap")).isEmpty();
        assertThat(session.dashboard()
                        .ofType("replayed")
                        .getFirst()
                        .get("count")
                        .asLong())
                .isEqualTo(missed.size());
        assertThat(ids(session)).containsExactlyInAnyOrderElementsOf(missed);
    }

    private static void awaitReceived(Session session, int count) {
        await().atMost(Duration.ofSeconds(30)).until(() -> ids(session).size() >= count);
        // and nothing more: a doubled event would arrive right behind
        await().during(Duration.ofSeconds(1))
                .atMost(Duration.ofSeconds(5))
                .until(() -> ids(session).size() == count);
    }

    private static List<String> ids(Session session) {
        return session.dashboard().ofType("data-unit").stream()
                .map(m -> m.get("data").get("id").asString())
                .toList();
    }

    private static List<String> concat(List<String> first, List<String> second) {
        var all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }

    private String subscribe(String since) {
        return "{\"type\":\"subscribe\",\"id\":\"u\",\"stream\":\"data-units\",\"filter\":{\"channel\":\"%s\"}%s}"
                .formatted(channel, since == null ? "" : ",\"since\":\"" + since + "\"");
    }

    /** A dashboard connection to any instance; closing waits until the server has closed its side too. */
    private record Session(PipelineClient.Dashboard dashboard, WebSocket socket, long before) implements AutoCloseable {

        void send(String json) {
            socket.sendText(json, true).join();
        }

        @Override
        public void close() {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye")
                    .exceptionally(t -> null)
                    .join();
            await().atMost(Duration.ofSeconds(5)).until(dashboard.closed::isDone);
        }
    }
}
