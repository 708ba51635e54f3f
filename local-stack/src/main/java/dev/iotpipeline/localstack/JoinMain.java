package dev.iotpipeline.localstack;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The "join" command: one more instance of a service, started against the broker and PostgreSQL of the stack that
 * runs on this machine with the same settings, as a scale-out starts it; it runs until Ctrl-C stops it gracefully.
 */
public final class JoinMain {

    private JoinMain() {}

    public static void main(String[] args) throws Exception {
        var settings = LocalStackMain.settings();
        Service service;
        int port;
        try {
            if (args.length < 1 || args.length > 2) {
                throw new IllegalArgumentException("usage: ./pipeline join <ingest|decoder|rules|notify> [PORT]");
            }
            service = Service.named(args[0]);
            port = args.length == 2 ? Integer.parseInt(args[1]) : nextFreePort(settings.port(service));
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        int kafkaPort = LocalStackMain.kafkaPort();
        int postgresPort = LocalStackMain.postgresPort();
        // A free port is one nothing listens on: no broker or PostgreSQL of a running stack there.
        if (PortOwners.free(kafkaPort) || PortOwners.free(postgresPort)) {
            System.err.printf(
                    "No stack to join: nothing answers on Kafka's port %d and PostgreSQL's port %d. "
                            + "Start one first (./pipeline run --processes), with the same IOT_* settings.%n",
                    kafkaPort, postgresPort);
            System.exit(1);
        }
        if (!PortOwners.free(port)) {
            System.err.printf(
                    "Port %d is taken%s; name another: ./pipeline join %s PORT%n",
                    port, PortOwners.owner(port).map(owner -> " by " + owner).orElse(""), service.shortName());
            System.exit(2);
        }
        var launcher = new ServiceLauncher(
                settings,
                LocalStackMain.root(),
                new Infrastructure("127.0.0.1:" + kafkaPort, Postgres.jdbcUrl(postgresPort), Postgres.USER, ""));
        var instance = new ProcessStack.Instance(
                service, port, settings.dataDir().resolve("logs").resolve(service.shortName() + "-" + port + ".log"));
        long started = System.nanoTime();
        launcher.spawn(instance);
        var stopping = new AtomicBoolean();
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            stopping.set(true);
                            System.out.printf("Stopping %s...%n", instance);
                            try {
                                instance.stopGracefully();
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        },
                        "join-shutdown"));
        try {
            launcher.awaitReady(instance);
        } catch (IOException e) {
            System.err.println(e.getMessage());
            System.exit(1);
        }
        System.out.printf(
                "%s joined the stack: ready in %.1f s (warm-up included), log %s. Ctrl-C stops it; "
                        + "nothing restarts it if it dies.%nREADY%n",
                instance, (System.nanoTime() - started) / 1e9, instance.log());
        int code = instance.process.waitFor();
        if (!stopping.get()) {
            System.out.printf(
                    "%s ended: %s; its log: %s%n", instance, Supervisor.ending(instance.process), instance.log());
            System.exit(code == 0 ? 1 : code);
        }
    }

    /** The first of the service's port + 100·n (n ≥ 1, as IOT_INSTANCES numbers them) that nothing listens on. */
    private static int nextFreePort(int base) {
        for (int n = 1; n < 100; n++) {
            if (PortOwners.free(base + 100 * n)) {
                return base + 100 * n;
            }
        }
        throw new IllegalArgumentException(
                "No free port among " + base + " + 100·n; name one: ./pipeline join <service> PORT");
    }
}
