package dev.iotpipeline.localstack;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Apache Kafka broker (combined KRaft broker and controller, from the kafka_2.13 jars) in a child
 * process of its own, so fault tests can stop or kill it like a real one. Its data lives under one
 * directory and survives restarts.
 */
public final class KafkaBroker implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KafkaBroker.class);

    /**
     * A second listener that takes only SASL/SCRAM-SHA-256 clients, for proving that a client configuration
     * reaches every Kafka client of the services: a client without it cannot talk to this listener.
     */
    public record Scram(int port, String user, String password) {

        /** The Kafka client properties a client of this listener needs besides the bootstrap servers. */
        public Map<String, String> clientProperties() {
            return Map.of(
                    "security.protocol",
                    "SASL_PLAINTEXT",
                    "sasl.mechanism",
                    "SCRAM-SHA-256",
                    "sasl.jaas.config",
                    "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user
                            + "\" password=\"" + password + "\";");
        }
    }

    private final Path dir;
    private final int port;
    private final int controllerPort;
    private final Scram scram;
    private volatile Process process;

    private KafkaBroker(Path dir, int port, int controllerPort, Scram scram) {
        this.dir = dir;
        this.port = port;
        this.controllerPort = controllerPort;
        this.scram = scram;
    }

    public static KafkaBroker start(Path dir, int port, int controllerPort, Duration timeout)
            throws IOException, InterruptedException {
        return start(dir, port, controllerPort, null, timeout);
    }

    /** As {@link #start(Path, int, int, Duration)}, with a SASL/SCRAM listener besides the plaintext one. */
    public static KafkaBroker start(Path dir, int port, int controllerPort, Scram scram, Duration timeout)
            throws IOException, InterruptedException {
        var broker = new KafkaBroker(dir.toAbsolutePath(), port, controllerPort, scram);
        broker.startProcess(timeout);
        return broker;
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    /** The SCRAM listener's address; only when the broker was started with one. */
    public String scramBootstrapServers() {
        return "127.0.0.1:" + scram.port();
    }

    /** Starts the broker again after {@link #stop()} or {@link #kill()}, on the same data. */
    public synchronized void restart(Duration timeout) throws IOException, InterruptedException {
        if (process != null && process.isAlive()) {
            return;
        }
        startProcess(timeout);
    }

    private synchronized void startProcess(Duration timeout) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        stopStale(dir);
        process = new BrokerSetup(dir, port, controllerPort, scram).prepare().start();
        Files.writeString(dir.resolve("broker.pid"), Long.toString(process.pid()));
        Orphans.reapWhenParentDies(process.pid(), "TERM");
        awaitReady(timeout);
        log.info("Kafka broker up on {} (pid {}, data {})", bootstrapServers(), process.pid(), dir);
    }

    private void awaitReady(Duration timeout) throws IOException, InterruptedException {
        var deadline = Instant.now().plus(timeout);
        // An admin client started before the broker listens logs a failed rebootstrap every few milliseconds.
        while (!portOpen() && Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IOException("Kafka broker exited with " + process.exitValue() + "; see "
                        + dir.resolve("broker.out") + " and " + dir.resolve("broker.log"));
            }
            Thread.sleep(200);
        }
        try (var admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                2000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                4000))) {
            while (Instant.now().isBefore(deadline)) {
                if (!process.isAlive()) {
                    throw new IOException("Kafka broker exited with " + process.exitValue() + "; see "
                            + dir.resolve("broker.out") + " and " + dir.resolve("broker.log"));
                }
                try {
                    if (portOpen()
                            && !admin.describeCluster()
                                    .nodes()
                                    .get(4, TimeUnit.SECONDS)
                                    .isEmpty()) {
                        requireOwnCluster(admin.describeCluster().clusterId().get(4, TimeUnit.SECONDS));
                        return;
                    }
                } catch (IOException notOurs) {
                    throw notOurs;
                } catch (Exception notYet) {
                    // still starting
                }
                Thread.sleep(200);
            }
        }
        throw new IOException("Kafka broker not ready within " + timeout + "; see " + dir.resolve("broker.log"));
    }

    /** The broker answering on our port must be the one formatted on our data, not another stack's. */
    private void requireOwnCluster(String clusterId) throws IOException {
        var meta = new Properties();
        try (var in = Files.newInputStream(dir.resolve("logs").resolve("meta.properties"))) {
            meta.load(in);
        }
        if (!clusterId.equals(meta.getProperty("cluster.id"))) {
            process.destroyForcibly();
            throw new IOException("The Kafka broker on " + bootstrapServers() + " is not ours (cluster " + clusterId
                    + ", ours is " + meta.getProperty("cluster.id") + "): port " + port + " is taken by "
                    + PortOwners.owner(port).orElse("another process"));
        }
    }

    private boolean portOpen() {
        try (var socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** A broker left behind by a run that was killed would hold the port and the log directory lock. */
    static void stopStale(Path dir) throws IOException {
        var pidFile = dir.resolve("broker.pid");
        if (!Files.exists(pidFile)) {
            return;
        }
        var stale = ProcessHandle.of(Long.parseLong(Files.readString(pidFile).trim()))
                .filter(p -> p.info()
                        .commandLine()
                        .map(c -> c.contains("kafka.Kafka"))
                        .orElse(false));
        if (stale.isPresent()) {
            log.warn(
                    "Stopping a Kafka broker left over from an earlier run (pid {})",
                    stale.get().pid());
            stale.get().destroy();
            stale.get()
                    .onExit()
                    .orTimeout(30, TimeUnit.SECONDS)
                    .exceptionally(t -> null)
                    .join();
            stale.get().destroyForcibly();
        }
        Files.deleteIfExists(pidFile);
    }

    /** Controlled shutdown, as on SIGTERM. */
    public synchronized void stop() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    /**
     * The broker as the stack's supervisor watches it: restarted on the same data and ports when it dies, and warmed
     * up for {@code warmup} (null: not) before it counts as back.
     */
    Supervisor.Part supervised(Duration warmup) {
        return new Supervisor.Part(
                "kafka",
                () -> Optional.ofNullable(process).map(Process::toHandle),
                () -> Supervisor.ending(process) + "; its log: " + dir.resolve("broker.log"),
                () -> {
                    restart(Duration.ofSeconds(90));
                    if (warmup != null) {
                        BrokerWarmup.run(bootstrapServers(), warmup).log();
                    }
                });
    }

    /** Abrupt death, as on SIGKILL or a crashed machine; for fault tests. */
    public synchronized void kill() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroyForcibly().waitFor();
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
