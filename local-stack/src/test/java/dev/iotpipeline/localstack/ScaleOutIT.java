package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.iotpipeline.events.Ids;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Instances of every service added and removed under steady load, as processes against one broker: nothing
 * accepted is lost or stored twice, every hot uplink raises one alarm, and a WebSocket subscriber on either
 * notify instance receives every data unit.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ScaleOutIT {

    private static final String CHANNEL = "scale";
    private static final int DEVICES = 8;
    private static final int RATE = 40;

    /** Under target/, not a temporary directory, so the processes' logs outlive a failed run. */
    private final Path data =
            Path.of("target", "scale-" + System.currentTimeMillis()).toAbsolutePath();

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void shouldLoseAndDoubleNothingWhileInstancesOfEveryServiceComeAndGo() throws Exception {
        try (var stack = ProcessStacks.start(data)) {
            var ruleId = ProcessStacks.createHotRule(stack, CHANNEL);
            var firstNotify = stack.first(Service.NOTIFY);
            var secondNotify = stack.startInstance(Service.NOTIFY, EmbeddedStack.freePort());
            try (var atFirst = subscribe(firstNotify);
                    var atSecond = subscribe(secondNotify);
                    var load = new SteadyLoad(
                                    stack.url(Service.INGEST), PipelineClient.DEVICE_KEY, CHANNEL, DEVICES, RATE)
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
                var accepted =
                        load.sent().stream().map(SteadyLoad.Sent::accepted).toList();
                var checker = new InvariantChecker(new InvariantChecker.Sources(
                        stack.broker().bootstrapServers(),
                        stack.infrastructure().jdbcUrl(),
                        Postgres.USER,
                        ""));
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
                assertThat(ProcessStacks.storedAlarms(stack, ruleId))
                        .containsExactlyInAnyOrderElementsOf(expectedAlarms);

                // and a subscriber on either notify instance received every data unit
                var dataUnits = accepted.stream()
                        .map(a -> Ids.derive(a.id(), "data-unit").toString())
                        .toList();
                for (var session : List.of(atFirst, atSecond)) {
                    await().atMost(Duration.ofSeconds(30))
                            .until(() -> ids(session).containsAll(dataUnits));
                    assertThat(ids(session)).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(dataUnits);
                }
                assertThat(thirdDecoder.isAlive()).isTrue();
                assertThat(secondRules.isAlive()).isTrue();
            }
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
