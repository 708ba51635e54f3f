package dev.iotpipeline.localstack;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * The pipeline as separate processes: the embedded broker and PostgreSQL, and every service instance
 * started from its exec jar, so that any of them can be killed with SIGKILL and started again.
 */
public final class ProcessStack implements AutoCloseable {

    /** One running service process. */
    public static final class Instance {

        private final Service service;
        private final int port;
        private final Path log;
        // Replaced by ServiceLauncher at every start of the instance.
        volatile Process process;

        Instance(Service service, int port, Path log) {
            this.service = service;
            this.port = port;
            this.log = log;
        }

        public Service service() {
            return service;
        }

        public int port() {
            return port;
        }

        public long pid() {
            return process.pid();
        }

        public boolean isAlive() {
            return process != null && process.isAlive();
        }

        public String url() {
            return "http://127.0.0.1:" + port;
        }

        public Path log() {
            return log;
        }

        /** SIGTERM, then SIGKILL if it has not ended within a minute. */
        void stopGracefully() throws InterruptedException {
            if (isAlive()) {
                process.destroy();
                if (!process.waitFor(60, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor();
                }
            }
        }

        @Override
        public String toString() {
            return service.shortName() + ":" + port + (process == null ? "" : " (pid " + process.pid() + ")");
        }
    }

    private final LocalStack.Settings settings;
    private final KafkaBroker broker;
    private volatile Postgres postgres;
    private final Infrastructure infrastructure;
    private final List<Instance> instances = new CopyOnWriteArrayList<>();
    private final ServiceLauncher launcher;

    private ProcessStack(LocalStack.Settings settings, Path root, KafkaBroker broker, Postgres postgres) {
        this.settings = settings;
        this.broker = broker;
        this.postgres = postgres;
        this.infrastructure = new Infrastructure(broker.bootstrapServers(), postgres.jdbcUrl(), Postgres.USER, "");
        this.launcher = new ServiceLauncher(settings, root, infrastructure);
    }

    /**
     * Starts the broker and PostgreSQL under the data directory, then one instance of each service on the
     * ports of {@code settings} (which must be fixed: a restarted instance comes back on its own port).
     */
    public static ProcessStack start(
            LocalStack.Settings settings, Path root, int kafkaPort, int kafkaControllerPort, int postgresPort)
            throws Exception {
        var backends = LocalStack.Backends.start(settings, kafkaPort, kafkaControllerPort, postgresPort);
        var brokerWarm = backends.brokerWarmup();
        var stack = new ProcessStack(settings, root, backends.broker(), backends.postgres());
        try {
            // The consumers start side by side (they need only Kafka and PostgreSQL), ingest after them.
            var consumers = new ArrayList<Instance>();
            for (var service : List.of(Service.DECODER, Service.RULES, Service.NOTIFY)) {
                consumers.add(stack.spawn(service, settings.port(service)));
            }
            for (var instance : consumers) {
                stack.launcher.awaitReady(instance);
            }
            stack.startInstance(Service.INGEST, settings.port(Service.INGEST));
            LocalStack.awaitBrokerWarmup(brokerWarm);
            return stack;
        } catch (Exception e) {
            stack.close();
            throw e;
        }
    }

    /** Starts one more instance of a service on {@code port} and waits until it reports ready. */
    public Instance startInstance(Service service, int port) throws IOException, InterruptedException {
        var instance = spawn(service, port);
        launcher.awaitReady(instance);
        return instance;
    }

    private Instance spawn(Service service, int port) throws IOException {
        var logFile =
                settings.dataDir().toAbsolutePath().resolve("logs").resolve(service.shortName() + "-" + port + ".log");
        var instance = new Instance(service, port, logFile);
        instances.add(instance);
        launcher.spawn(instance);
        return instance;
    }

    private void launch(Instance instance) throws IOException, InterruptedException {
        launcher.spawn(instance);
        launcher.awaitReady(instance);
    }

    /** Whether the instance answers its readiness probe with 200. */
    public boolean ready(Instance instance) {
        return launcher.ready(instance);
    }

    /** SIGKILL: no shutdown hook runs, nothing is flushed or committed. */
    public void kill(Instance instance) throws InterruptedException {
        if (instance.isAlive()) {
            instance.process.destroyForcibly();
            instance.process.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** Starts a killed or stopped instance again on its own port (so with its own static group membership). */
    public void restart(Instance instance) throws IOException, InterruptedException {
        if (instance.isAlive()) {
            throw new IllegalStateException(instance + " is still running");
        }
        launch(instance);
    }

    /** Starts killed instances again: the consumers side by side, then ingest, as at first start. */
    public void restartAll(List<Instance> killed) throws IOException, InterruptedException {
        var consumers = killed.stream().filter(i -> i.service != Service.INGEST).toList();
        for (var instance : consumers) {
            launcher.spawn(instance);
        }
        for (var instance : consumers) {
            launcher.awaitReady(instance);
        }
        for (var instance : killed) {
            if (instance.service == Service.INGEST) {
                launch(instance);
            }
        }
    }

    /** Graceful stop (SIGTERM), and forgets the instance: scaling in. */
    public void stop(Instance instance) throws InterruptedException {
        instance.stopGracefully();
        instances.remove(instance);
    }

    /** Drops a dead instance from the stack, as when a machine is gone for good. */
    public void forget(Instance instance) {
        if (instance.isAlive()) {
            throw new IllegalStateException(instance + " is still running");
        }
        instances.remove(instance);
    }

    public List<Instance> instances() {
        return List.copyOf(instances);
    }

    public Instance first(Service service) {
        return instances.stream()
                .filter(i -> i.service == service)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no " + service.shortName() + " instance"));
    }

    /** What a supervisor restarts when it dies: the broker, PostgreSQL and every service instance running now. */
    List<Supervisor.Part> supervisedParts() {
        var parts = new ArrayList<Supervisor.Part>();
        parts.add(broker.supervised(settings.warmup() ? BrokerWarmup.BUDGET : null));
        parts.add(Postgres.supervised(() -> postgres, restarted -> postgres = restarted));
        for (var instance : instances) {
            parts.add(new Supervisor.Part(
                    instance.service.shortName() + " :" + instance.port,
                    () -> Optional.ofNullable(instance.process).map(Process::toHandle),
                    () -> Supervisor.ending(instance.process) + "; its log: " + instance.log,
                    () -> launch(instance)));
        }
        return parts;
    }

    public KafkaBroker broker() {
        return broker;
    }

    /** kill -9 of the postmaster. */
    public void killPostgres() {
        postgres.kill();
    }

    public void restartPostgres() throws Exception {
        postgres = postgres.restart();
    }

    public Infrastructure infrastructure() {
        return infrastructure;
    }

    public LocalStack.Settings settings() {
        return settings;
    }

    public String url(Service service) {
        return first(service).url();
    }

    public long postgresPid() {
        return postgres.pid().orElse(-1L);
    }

    @Override
    public void close() throws Exception {
        var reversed = new ArrayList<>(instances);
        Collections.reverse(reversed);
        // Ingest first, so nothing more is accepted; then the consumers finish their batches.
        for (var instance : reversed) {
            stop(instance);
        }
        postgres.close();
        broker.close();
    }
}
