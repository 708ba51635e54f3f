package dev.iotpipeline.localstack;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The whole pipeline on one machine: a real Kafka broker and PostgreSQL (or given infrastructure), and the
 * four services, each its own Spring application context with its own port, started in dependency order.
 */
public final class LocalStack implements AutoCloseable {

    /** Ports of the four services; 0 picks a free one. */
    public record Ports(int ingestPort, int decoderPort, int rulesPort, int notifyPort) {

        public static final Ports DEFAULT = new Ports(8080, 8081, 8082, 8083);
        public static final Ports RANDOM = new Ports(0, 0, 0, 0);
    }

    /**
     * What the stack is started with; {@code properties} are passed to every service ("name=value").
     * {@code durable} keeps PostgreSQL's fsync, synchronous_commit and full_page_writes on; only tests that
     * never kill PostgreSQL turn it off, for speed.
     */
    public record Settings(
            Path dataDir,
            Ports ports,
            String deviceKey,
            String dashboardToken,
            String adminToken,
            int partitions,
            List<String> properties,
            boolean durable) {

        /**
         * Partitions of a topic {@code ./pipeline run} creates: the most instances of a service that can share its
         * work, fixed once the topic exists; 6 lets 1, 2, 3 or 6 instances each take an equal share.
         */
        public static final int DEFAULT_PARTITIONS = 6;

        public Settings(
                Path dataDir, Ports ports, String deviceKey, String dashboardToken, String adminToken, int partitions) {
            this(dataDir, ports, deviceKey, dashboardToken, adminToken, partitions, List.of(), true);
        }

        /** Whether the parts warm up before they report ready: unless a service property turns it off. */
        boolean warmup() {
            return !properties.contains("iot.warmup.enabled=false");
        }

        int port(Service service) {
            return switch (service) {
                case INGEST -> ports.ingestPort();
                case DECODER -> ports.decoderPort();
                case RULES -> ports.rulesPort();
                case NOTIFY -> ports.notifyPort();
            };
        }
    }

    private final Settings settings;
    private final Infrastructure infrastructure;
    private final KafkaBroker broker;
    private volatile Postgres postgres;
    private final List<ConfigurableApplicationContext> services = new ArrayList<>();
    private ConfigurableApplicationContext ingest;
    private ConfigurableApplicationContext decoder;
    private ConfigurableApplicationContext rules;
    private ConfigurableApplicationContext notify;

    private LocalStack(Settings settings, Infrastructure infrastructure, KafkaBroker broker, Postgres postgres) {
        this.settings = settings;
        this.infrastructure = infrastructure;
        this.broker = broker;
        this.postgres = postgres;
    }

    /** Starts the embedded Kafka broker and PostgreSQL under the data directory, then the services. */
    public static LocalStack startEmbedded(Settings settings, int kafkaPort, int kafkaControllerPort, int postgresPort)
            throws Exception {
        var backends = Backends.start(settings, kafkaPort, kafkaControllerPort, postgresPort);
        var broker = backends.broker();
        var postgres = backends.postgres();
        try {
            var infrastructure = new Infrastructure(broker.bootstrapServers(), postgres.jdbcUrl(), Postgres.USER, "");
            var stack = new LocalStack(settings, infrastructure, broker, postgres).startServices();
            awaitBrokerWarmup(backends.brokerWarmup());
            return stack;
        } catch (Exception e) {
            postgres.close();
            broker.close();
            throw e;
        }
    }

    /** The broker and PostgreSQL of a stack, and the broker's warm-up, which runs while the services start. */
    record Backends(KafkaBroker broker, Postgres postgres, CompletableFuture<BrokerWarmup.Outcome> brokerWarmup) {

        /**
         * Starts both side by side: each mostly waits on its own process (a JVM starting, initdb fsyncing), so
         * a start takes the longer of the two rather than their sum. Neither is left running when one fails.
         */
        static Backends start(Settings settings, int kafkaPort, int kafkaControllerPort, int postgresPort)
                throws Exception {
            var data = settings.dataDir().toAbsolutePath();
            var postgresStart = CompletableFuture.supplyAsync(() -> {
                try {
                    return Postgres.start(data.resolve("postgres"), postgresPort, settings.durable());
                } catch (Exception e) {
                    throw new CompletionException(e);
                }
            });
            KafkaBroker broker;
            try {
                broker = KafkaBroker.start(
                        data.resolve("kafka"), kafkaPort, kafkaControllerPort, Duration.ofSeconds(90));
            } catch (Exception e) {
                try {
                    postgresStart.join().close();
                } catch (Exception postgresFailure) {
                    e.addSuppressed(postgresFailure);
                }
                throw e;
            }
            // While PostgreSQL and the services start, which need the broker only for metadata meanwhile.
            var brokerWarmup = warmBroker(settings, broker);
            try {
                return new Backends(broker, postgresStart.join(), brokerWarmup);
            } catch (CompletionException e) {
                brokerWarmup.cancel(false);
                broker.close();
                throw e.getCause() instanceof Exception cause ? cause : e;
            }
        }
    }

    /** The broker's warm-up in the background when the settings want it, else nothing. */
    static CompletableFuture<BrokerWarmup.Outcome> warmBroker(Settings settings, KafkaBroker broker) {
        return settings.warmup()
                ? CompletableFuture.supplyAsync(() -> BrokerWarmup.run(broker.bootstrapServers(), BrokerWarmup.BUDGET))
                : CompletableFuture.completedFuture(null);
    }

    /** Waits for the broker's warm-up and says how it went, on the caller's thread. */
    static void awaitBrokerWarmup(CompletableFuture<BrokerWarmup.Outcome> warmup) {
        var outcome = warmup.join();
        if (outcome != null) {
            outcome.log();
        }
    }

    /** Starts only the services, against Kafka and PostgreSQL that run elsewhere (e.g. Testcontainers). */
    public static LocalStack startOn(Infrastructure infrastructure, Settings settings) throws Exception {
        return new LocalStack(settings, infrastructure, null, null).startServices();
    }

    private LocalStack startServices() throws Exception {
        try {
            decoder = start(Service.DECODER, settings.ports().decoderPort());
            rules = start(Service.RULES, settings.ports().rulesPort());
            notify = start(Service.NOTIFY, settings.ports().notifyPort());
            ingest = start(Service.INGEST, settings.ports().ingestPort());
            return this;
        } catch (Exception e) {
            close();
            throw e;
        }
    }

    /**
     * Stops the decoder, runs {@code whileStopped}, and starts it again on the same port and settings, the
     * way an operator restarts one instance; for replay tests.
     */
    public synchronized void restartDecoder(Runnable whileStopped) {
        int port = port(decoder);
        services.remove(decoder);
        decoder.close();
        whileStopped.run();
        decoder = start(Service.DECODER, port);
    }

    /**
     * Stops PostgreSQL, runs {@code whileStopped}, and starts it again on the same port and data, the way a
     * database failover or restart looks to notify-service; for outage tests of the embedded stack.
     */
    public synchronized void restartPostgres(Runnable whileStopped) throws Exception {
        if (postgres == null) {
            throw new IllegalStateException("PostgreSQL is not embedded in this stack");
        }
        postgres.close();
        whileStopped.run();
        postgres = postgres.restart();
    }

    /**
     * What a supervisor restarts when it dies: the embedded broker and PostgreSQL (the services share this JVM,
     * so they live and die with it). Empty for a stack on infrastructure that runs elsewhere.
     */
    List<Supervisor.Part> supervisedParts() {
        if (broker == null || postgres == null) {
            return List.of();
        }
        return List.of(
                broker.supervised(settings.warmup() ? BrokerWarmup.BUDGET : null),
                Postgres.supervised(() -> postgres, restarted -> postgres = restarted));
    }

    /** Stops rules-service and starts it again on the same port and state directory. */
    public synchronized void restartRules() {
        int port = port(rules);
        services.remove(rules);
        rules.close();
        rules = start(Service.RULES, port);
    }

    private ConfigurableApplicationContext start(Service service, int port) {
        var args = ServiceProperties.of(service, settings, infrastructure, port, true).stream()
                .map(property -> "--" + property)
                .toArray(String[]::new);
        var app = service.application();
        // One shutdown hook for the whole stack (see LocalStackMain), so services stop before Kafka does.
        app.setRegisterShutdownHook(false);
        // The banner lists what started. Spring's startup lines would go to the logger of whatever class's main
        // method is on the starting thread: the launcher's, which the console quiets, but none on --then's start
        // thread, and then four times three lines under Spring's own logger.
        app.setLogStartupInfo(false);
        var context = app.run(args);
        services.add(context);
        return context;
    }

    private static int port(ConfigurableApplicationContext context) {
        return Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
    }

    public String bootstrapServers() {
        return infrastructure.bootstrapServers();
    }

    public Infrastructure infrastructure() {
        return infrastructure;
    }

    /** The embedded broker, for fault tests; null when the stack runs on external infrastructure. */
    public KafkaBroker broker() {
        return broker;
    }

    public String ingestUrl() {
        return url(ingest);
    }

    public String decoderUrl() {
        return url(decoder);
    }

    public String rulesUrl() {
        return url(rules);
    }

    public String notifyUrl() {
        return url(notify);
    }

    public String notifyWebSocketUrl() {
        return url(notify).replaceFirst("^http", "ws") + "/ws";
    }

    public Settings settings() {
        return settings;
    }

    private static String url(ConfigurableApplicationContext context) {
        return "http://127.0.0.1:" + context.getEnvironment().getProperty("local.server.port");
    }

    @Override
    public synchronized void close() throws Exception {
        var reversed = new ArrayList<>(services);
        Collections.reverse(reversed);
        // Ingest stops taking requests first; the consumers then finish their in-flight batches.
        for (var context : reversed) {
            context.close();
        }
        services.clear();
        if (postgres != null) {
            postgres.close();
        }
        if (broker != null) {
            broker.close();
        }
    }
}
