package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.iotpipeline.events.Ids;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * Several instances of the services as processes against one broker, under steady load: instances of every service
 * added and removed lose or store twice nothing, every hot uplink raises one alarm, and a WebSocket subscriber on
 * either notify instance receives every data unit; a registry change reaches every ingest instance within a second.
 * The two tests share one stack: each starts the instances it needs.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ScaleOutIT {

    private static final String CHANNEL = "scale";
    private static final int DEVICES = 8;
    private static final int RATE = 40;

    /** Under target/, not a temporary directory, so the processes' logs outlive a failed run. */
    private final Path data =
            Path.of("target", "scale-" + System.currentTimeMillis()).toAbsolutePath();

    private final HttpClient http = HttpClient.newHttpClient();

    private ProcessStack stack;

    @BeforeAll
    void start() throws Exception {
        stack = ProcessStacks.start(data);
    }

    @AfterAll
    void stop() throws Exception {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void shouldLoseAndDoubleNothingWhileInstancesOfEveryServiceComeAndGo() throws Exception {
        var ruleId = ProcessStacks.createHotRule(stack, CHANNEL);
        var firstNotify = stack.first(Service.NOTIFY);
        var secondNotify = stack.startInstance(Service.NOTIFY, EmbeddedStack.freePort());
        try (var atFirst = subscribe(firstNotify);
                var atSecond = subscribe(secondNotify);
                var load = new SteadyLoad(stack.url(Service.INGEST), PipelineClient.DEVICE_KEY, CHANNEL, DEVICES, RATE)
                        .start()) {
            // when a second decoder and a second rules instance join under load
            pause(4);
            var secondDecoder = stack.startInstance(Service.DECODER, EmbeddedStack.freePort());
            var secondRules = stack.startInstance(Service.RULES, EmbeddedStack.freePort());
            pause(6);
            // and the first ones leave, then a third decoder joins and the second leaves
            stack.stop(stack.first(Service.DECODER));
            stack.stop(stack.first(Service.RULES));
            pause(6);
            var thirdDecoder = stack.startInstance(Service.DECODER, EmbeddedStack.freePort());
            pause(4);
            stack.stop(secondDecoder);
            pause(6);
            load.close();

            // then every accepted uplink is stored exactly once, in order per device
            var accepted = load.sent().stream().map(SteadyLoad.Sent::accepted).toList();
            var checker = new InvariantChecker(new InvariantChecker.Sources(
                    stack.broker().bootstrapServers(), stack.infrastructure().jdbcUrl(), Postgres.USER, ""));
            await().atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofSeconds(1))
                    .ignoreExceptions()
                    .until(() -> checker.check(accepted).missing().isEmpty());
            var report = checker.check(accepted);
            assertThat(report.ok()).as(report.details()).isTrue();
            assertThat(accepted).hasSizeGreaterThan(RATE * 10);

            // and each hot uplink raised one alarm, none twice
            var expectedAlarms = new HashSet<UUID>();
            load.sent().stream()
                    .filter(SteadyLoad.Sent::hot)
                    .forEach(sent -> expectedAlarms.add(
                            Ids.derive(Ids.derive(sent.accepted().id(), "data-unit"), "alarm:" + ruleId)));
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofSeconds(1))
                    .until(() -> ProcessStacks.storedAlarms(stack, ruleId).containsAll(expectedAlarms));
            assertThat(ProcessStacks.storedAlarms(stack, ruleId)).containsExactlyInAnyOrderElementsOf(expectedAlarms);

            // and a subscriber on either notify instance received every data unit
            var dataUnits = accepted.stream()
                    .map(a -> Ids.derive(a.id(), "data-unit").toString())
                    .toList();
            for (var session : List.of(atFirst, atSecond)) {
                await().atMost(Duration.ofSeconds(30)).until(() -> ids(session).containsAll(dataUnits));
                assertThat(ids(session)).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(dataUnits);
            }
            assertThat(thirdDecoder.isAlive()).isTrue();
            assertThat(secondRules.isAlive()).isTrue();
        }
    }

    @Test
    void shouldRefuseADisabledDeviceOnEveryIngestInstanceWithinASecondWhileTheyServeLoad() throws Exception {
        var channel = "propagation";
        var ingests =
                List.of(stack.first(Service.INGEST), stack.startInstance(Service.INGEST, EmbeddedStack.freePort()));
        var through = ingests.getFirst();
        var other = ingests.getLast();
        var rehearsed = new OwnDevice(through, channel, "own-0");
        var measured = new OwnDevice(through, channel, "own-1");
        for (var own : List.of(rehearsed, measured)) {
            var created = own.put("{\"deviceType\":\"em300th\",\"secret\":\"" + own.secret + "\"}");
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        }
        // the new devices and their credentials reach both instances
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> ingests.stream()
                        .allMatch(ingest -> rehearsed.post(ingest) == 202 && measured.post(ingest) == 202));

        try (var first = new SteadyLoad(through.url(), PipelineClient.DEVICE_KEY, channel, DEVICES, RATE).start();
                var second = new SteadyLoad(other.url(), PipelineClient.DEVICE_KEY, channel, DEVICES, RATE).start()) {
            pause(2);
            // One disable before the measured one: the promise is how fast a change travels, not how long a freshly
            // started JVM takes to run its admin and refusal code for the first time (up to a second on a loaded box).
            rehearsed.disable();
            await().atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> ingests.stream().allMatch(ingest -> rehearsed.post(ingest) == 403));

            // when the device is disabled through one of them
            long before = System.nanoTime();
            measured.disable();
            long made = System.nanoTime();

            // then that one refuses it at once, as its answer came after the change was applied there,
            assertThat(measured.post(through)).isEqualTo(403);
            // and the other within a second of the change
            await().atMost(Duration.ofSeconds(10))
                    .pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> measured.post(other) == 403);
            var refusedAfter = Duration.ofNanos(System.nanoTime() - made);
            assertThat(refusedAfter)
                    .as("time from the change to its refusal by the other instance")
                    .isLessThanOrEqualTo(Duration.ofSeconds(1));
            // and the load under the channel key, on other devices, went on being accepted by both after the change
            for (var load : List.of(first, second)) {
                await().atMost(Duration.ofSeconds(10))
                        .until(() ->
                                load.answersBetween(before, System.nanoTime()).size() >= DEVICES);
                assertThat(load.answersBetween(before, System.nanoTime()))
                        .extracting(SteadyLoad.Answer::status)
                        .containsOnly(202);
            }
        }
    }

    /** A registered device of the propagation test, with a credential of its own. */
    private final class OwnDevice {
        private final String url;
        private final String channel;
        private final String deviceId;
        private final String secret = "propagation-secret-" + UUID.randomUUID();

        OwnDevice(ProcessStack.Instance admin, String channel, String deviceId) {
            this.url = admin.url() + "/registry/" + channel + "/devices/" + deviceId;
            this.channel = channel;
            this.deviceId = deviceId;
        }

        HttpResponse<String> put(String body) {
            return send("PUT", url, body, ADMIN);
        }

        void disable() {
            var disabled = put("{\"deviceType\":\"em300th\",\"enabled\":false}");
            assertThat(disabled.statusCode()).as(disabled.body()).isEqualTo(200);
        }

        /** One uplink of this device with its own credential: the status it got. */
        int post(ProcessStack.Instance ingest) {
            return send(
                            "POST",
                            ingest.url() + "/sensor-data/" + channel + "/encoded/em300th",
                            "{\"deviceId\":\"" + deviceId + "\",\"payloadHex\":\"01755C0367C800046865\"}",
                            secret)
                    .statusCode();
        }
    }

    private static final String ADMIN = PipelineClient.ADMIN_TOKEN;

    private HttpResponse<String> send(String method, String url, String body, String token) {
        try {
            return http.send(
                    HttpRequest.newBuilder(URI.create(url))
                            .timeout(Duration.ofSeconds(10))
                            .header("Content-Type", "application/json")
                            .header("Authorization", "Bearer " + token)
                            .method(method, HttpRequest.BodyPublishers.ofString(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private record Session(PipelineClient.Dashboard dashboard, WebSocket socket) implements AutoCloseable {
        @Override
        public void close() {
            socket.abort();
        }
    }

    private Session subscribe(ProcessStack.Instance notify) {
        var dashboard = new PipelineClient.Dashboard(true);
        var socket = http.newWebSocketBuilder()
                .header("Authorization", "Bearer " + PipelineClient.DASHBOARD_TOKEN)
                .buildAsync(URI.create(notify.url().replace("http://", "ws://") + "/ws"), dashboard)
                .join();
        socket.sendText(
                "{\"type\":\"subscribe\",\"id\":\"s\",\"stream\":\"data-units\",\"filter\":{\"channel\":\"" + CHANNEL
                        + "\"}}",
                true);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> dashboard.ofType("subscribed").size() == 1);
        return new Session(dashboard, socket);
    }

    private static List<String> ids(Session session) {
        return session.dashboard().ofType("data-unit").stream()
                .map(m -> m.get("data").get("id").asString())
                .toList();
    }

    /** Lets the load run: instances join and leave while uplinks keep arriving. */
    private static void pause(int seconds) throws InterruptedException {
        Thread.sleep(seconds * 1000L);
    }
}
