package dev.iotpipeline.localstack;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import org.springframework.util.FileSystemUtils;

/**
 * One embedded stack (real KRaft broker process, real PostgreSQL, the four services) shared by the
 * integration tests of this JVM, started on first use and stopped when the JVM exits.
 */
final class EmbeddedStack {

    static final String LIMITED_KEY = "it-limited-key";
    static final String BOUND_KEY = "it-bound-key";
    static final String BOUND_CHANNEL = "it-bound";
    static final String SCOPED_TOKEN = "it-scoped-token";
    static final String SCOPED_CHANNEL = "it-scoped";

    private static LocalStack shared;

    private EmbeddedStack() {}

    static synchronized LocalStack shared() {
        if (shared == null) {
            try {
                var data = Files.createTempDirectory("iot-pipeline-it");
                shared = start(data);
                // The data directory goes once the stack has stopped: a few runs left gigabytes in /tmp.
                closeOnExit(shared, () -> FileSystemUtils.deleteRecursively(data));
            } catch (Exception e) {
                throw new IllegalStateException("embedded stack did not start", e);
            }
        }
        return shared;
    }

    /** Closes the resources, in order, when the test JVM exits: shared stacks outlive every test class. */
    static void closeOnExit(AutoCloseable... resources) {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            for (var resource : resources) {
                try {
                    resource.close();
                } catch (Exception e) {
                    e.printStackTrace();
                }
            }
        }));
    }

    /** A stack of its own, for tests that stop or restart parts of it. */
    static LocalStack start(Path data) throws Exception {
        return LocalStack.startEmbedded(settings(data), freePort(), freePort(), freePort());
    }

    /**
     * Besides the all-channel test key: a key bound to one channel, a key with a tiny rate limit, and a
     * dashboard token scoped to one channel; WebSocket limits small enough for tests to reach them (the
     * per-credential connection limit is reached with the admin token, which no other test holds open).
     */
    static LocalStack.Settings settings(Path data) {
        return new LocalStack.Settings(
                data,
                LocalStack.Ports.RANDOM,
                PipelineClient.DEVICE_KEY,
                PipelineClient.DASHBOARD_TOKEN,
                PipelineClient.ADMIN_TOKEN,
                3,
                List.of(
                        "iot.security.device-keys[1].channel=" + BOUND_CHANNEL,
                        "iot.security.device-keys[1].key=" + BOUND_KEY,
                        "iot.security.device-keys[2].channel=*",
                        "iot.security.device-keys[2].key=" + LIMITED_KEY,
                        "iot.security.device-keys[2].rate-per-second=2",
                        "iot.security.dashboard-tokens[1].token=" + SCOPED_TOKEN,
                        "iot.security.dashboard-tokens[1].channels[0]=" + SCOPED_CHANNEL,
                        "notify.websocket.max-queued-messages=256",
                        "notify.websocket.slow-client-close-after=2s",
                        "notify.websocket.heartbeat-interval=1s",
                        "notify.websocket.idle-timeout=5s",
                        "notify.websocket.max-message-bytes=16384",
                        "notify.websocket.max-subscriptions-per-connection=20",
                        "notify.websocket.max-connections-per-credential=40",
                        // Seconds per start, for the many stacks of the suite; RunConsoleIT and the process stacks
                        // start with the warm-up, as ./pipeline run does.
                        "iot.warmup.enabled=false"),
                // Speed over durability: these tests never kill PostgreSQL (the fault suite runs durable).
                false);
    }

    /** Ports handed out in this JVM: a port is handed out once, whatever its holder did with it since. */
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    /**
     * Where ports are handed out from: below Linux's ephemeral range (32768-60999). A port the OS offers for
     * {@code new ServerSocket(0)} comes from that range, and so does the local port of every outgoing connection on
     * the machine: between the hand-out and a service binding it seconds later, a Kafka client's connection in the
     * other test fork took one (RunConsoleIT: "Port 39937 was already in use").
     */
    static final int LOWEST_PORT = 20000;

    static final int HIGHEST_PORT = 32000;

    /** A port free now, not handed out before in this JVM, and outside the range outgoing connections draw from. */
    static int freePort() {
        var random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 1000; attempt++) {
            int port = random.nextInt(LOWEST_PORT, HIGHEST_PORT);
            if (!HANDED_OUT.contains(port) && bindable(port) && HANDED_OUT.add(port)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port between " + LOWEST_PORT + " and " + HIGHEST_PORT);
    }

    private static boolean bindable(int port) {
        try (var socket = new ServerSocket(port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
