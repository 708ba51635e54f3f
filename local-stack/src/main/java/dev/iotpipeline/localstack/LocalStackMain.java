package dev.iotpipeline.localstack;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The "run" command: starts the whole pipeline on this machine and keeps it running until Ctrl-C, with
 * the services in this JVM (the default) or, with {@code --processes}, each instance a process of its own.
 * Settings come from environment variables so the same command works in scripts and CI. With
 * {@code --then COMMAND...} it is the scripts' process launcher instead: see {@link StackLauncher}.
 */
public final class LocalStackMain {

    private LocalStackMain() {}

    public static void main(String[] args) throws Exception {
        StackLauncher.Options options;
        try {
            options = StackLauncher.Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        if (options.log() != null) {
            StackLauncher.logTo(options.log());
        }
        boolean processes = options.processes();
        var settings = settings();
        var dataDir = settings.dataDir();
        int kafkaPort = kafkaPort();
        int controllerPort = port("IOT_KAFKA_CONTROLLER_PORT", kafkaPort + 1);
        int postgresPort = postgresPort();
        var extra = extraInstances(settings);

        // Our own broker and PostgreSQL left behind by a killed run hold our ports: stop them first, then
        // refuse to start if anything else holds a port we need.
        KafkaBroker.stopStale(dataDir.resolve("kafka"));
        Postgres.stopStale(dataDir.resolve("postgres"));
        var ports = new LinkedHashMap<String, Integer>();
        for (var service : Service.values()) {
            ports.put(service.shortName(), settings.port(service));
        }
        extra.forEach(e -> ports.put(e.service().shortName() + " #" + e.port(), e.port()));
        ports.put("kafka", kafkaPort);
        ports.put("kafka controller", controllerPort);
        ports.put("postgres", postgresPort);
        try {
            PortOwners.requireFree(ports);
        } catch (IllegalStateException e) {
            System.err.println(e.getMessage());
            if (options.log() != null) {
                StackLauncher.CONSOLE.println(e.getMessage());
            }
            System.exit(2);
        }

        var started = System.nanoTime();
        Callable<Started> start = () -> {
            if (processes) {
                var processStack = ProcessStack.start(settings, root(), kafkaPort, controllerPort, postgresPort);
                for (var instance : extra) {
                    processStack.startInstance(instance.service(), instance.port());
                }
                return new Started(processStack, processSummary(processStack), processStack.supervisedParts());
            }
            var embedded = LocalStack.startEmbedded(settings, kafkaPort, controllerPort, postgresPort);
            return new Started(embedded, "", embedded.supervisedParts());
        };
        // Run for a command (scripts, CI): bounded, and a failed start ends the run with its reason. Run by hand:
        // as long as it takes, a failure as the exception.
        var up = options.then() == null
                ? start.call()
                : StackLauncher.startWithin(Duration.ofSeconds(port("IOT_START_TIMEOUT", 300)), start, options.log());
        var stack = up.stack();
        var summary = up.summary();
        // On by default: a part that dies is started again, so a crash is a blip rather than an outage.
        var supervisor = env("IOT_SUPERVISE", "true").equalsIgnoreCase("false")
                ? null
                : Supervisor.start(up.parts(), Supervisor.Policy.DEFAULT, System.out);
        var stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            System.out.println("Stopping the pipeline...");
                            long stopping = System.nanoTime();
                            try {
                                if (supervisor != null) {
                                    // First, so that the parts stopped now are not started again.
                                    supervisor.close();
                                }
                                stack.close();
                                // The last line says the stop finished rather than hung, and where the data waits.
                                System.out.printf(
                                        "Stopped in %.1f s. Data kept in %s%n",
                                        (System.nanoTime() - stopping) / 1e9, dataDir);
                            } catch (Exception e) {
                                e.printStackTrace();
                            }
                            stopped.countDown();
                        },
                        "local-stack-shutdown"));
        var url = (Function<Service, String>) s -> "http://127.0.0.1:" + settings.port(s);
        System.out.printf(
                """

                iot-pipeline is running (started in %.1f s%s). Data: %s

                  ingest   %s   POST /sensor-data/{channel}/encoded/{deviceType}, /registry/{channel}/devices
                  decoder  %s   GET|PUT /device-types
                  rules    %s   GET|POST /rules
                  notify   %s   GET  /data-units, /devices/registered, WebSocket %s
                  kafka    127.0.0.1:%d
                  postgres jdbc:postgresql://127.0.0.1:%d/%s (fsync, synchronous_commit and full_page_writes on)
                %s
                  device key       %s   (Authorization: Bearer <key>, any channel)
                  dashboard token  %s   (Authorization: Bearer <token>, all channels)
                  admin token      %s   (Authorization: Bearer <token>, registry, device types, rules, re-drive)

                Try:
                  curl -i -X POST %s/sensor-data/demo/encoded/em300th \\
                    -H 'Authorization: Bearer %s' -H 'Content-Type: application/json' \\
                    -d '{"deviceId":"em300-1","payloadHex":"01755C03673401046865"}'

                %s
                %s
                READY
                %n""",
                (System.nanoTime() - started) / 1e9,
                processes ? ", one process per service" : "",
                dataDir,
                url.apply(Service.INGEST),
                url.apply(Service.DECODER),
                url.apply(Service.RULES),
                url.apply(Service.NOTIFY),
                url.apply(Service.NOTIFY).replaceFirst("^http", "ws") + "/ws",
                kafkaPort,
                postgresPort,
                Postgres.DATABASE,
                summary,
                settings.deviceKey(),
                settings.dashboardToken(),
                settings.adminToken(),
                url.apply(Service.INGEST),
                settings.deviceKey(),
                supervisor == null
                        ? "Nothing restarts a part that dies (IOT_SUPERVISE=false)."
                        : "A part that dies is restarted: "
                                + up.parts().stream().map(Supervisor.Part::name).collect(Collectors.joining(", "))
                                + ".",
                options.then() == null ? "Ctrl-C stops everything." : "Running: " + String.join(" ", options.then()));
        if (options.then() != null) {
            // The shutdown hook stops the stack once the command has ended.
            System.exit(StackLauncher.run(options.then(), StackLauncher.environment(settings)));
        }
        stopped.await();
    }

    private record Extra(Service service, int port) {}

    private record Started(AutoCloseable stack, String summary, List<Supervisor.Part> parts) {}

    /**
     * IOT_INSTANCES="decoder=2,rules=2,notify=2" runs that many instances of a service in process mode; the
     * n-th extra instance listens on the service's port + 100 * n.
     */
    private static List<Extra> extraInstances(LocalStack.Settings settings) {
        var extra = new ArrayList<Extra>();
        var spec = env("IOT_INSTANCES", "");
        for (var part : spec.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            var nameAndCount = part.trim().split("=");
            var service = Service.named(nameAndCount[0].trim());
            int count = Integer.parseInt(nameAndCount[1].trim());
            for (int n = 1; n < count; n++) {
                extra.add(new Extra(service, settings.port(service) + 100 * n));
            }
        }
        return extra;
    }

    private static String processSummary(ProcessStack stack) {
        var lines = new StringBuilder(
                "\n  processes (logs in " + stack.settings().dataDir().resolve("logs") + "):\n");
        lines.append(String.format("    %-8s pid %d%n", "kafka", stack.broker().pid()));
        lines.append(String.format("    %-8s pid %d%n", "postgres", stack.postgresPid()));
        for (var instance : stack.instances()) {
            lines.append(String.format(
                    "    %-8s pid %d   %s%n", instance.service().shortName(), instance.pid(), instance.url()));
        }
        return lines.toString();
    }

    /** The stack's settings from the environment: what {@code run} starts with, and what {@code join} joins. */
    static LocalStack.Settings settings() {
        return new LocalStack.Settings(
                Path.of(env("IOT_DATA_DIR", "data")).toAbsolutePath(),
                new LocalStack.Ports(
                        port("IOT_INGEST_PORT", 8080),
                        port("IOT_DECODER_PORT", 8081),
                        port("IOT_RULES_PORT", 8082),
                        port("IOT_NOTIFY_PORT", 8083)),
                env("IOT_DEVICE_KEY", "demo-device-key"),
                env("IOT_DASHBOARD_TOKEN", "demo-dashboard-token"),
                env("IOT_ADMIN_TOKEN", "demo-admin-token"),
                port("IOT_PARTITIONS", LocalStack.Settings.DEFAULT_PARTITIONS),
                // The services read IOT_WARMUP_ENABLED themselves; the broker's warm-up follows the same switch.
                env("IOT_WARMUP_ENABLED", "true").equalsIgnoreCase("false")
                        ? List.of("iot.warmup.enabled=false")
                        : List.of(),
                true);
    }

    static int kafkaPort() {
        return port("IOT_KAFKA_PORT", 9092);
    }

    static int postgresPort() {
        return port("IOT_POSTGRES_PORT", 5433);
    }

    /** The checkout the exec jars are built in: IOT_HOME, else the working directory (./pipeline cds there). */
    static Path root() {
        return Path.of(env("IOT_HOME", ".")).toAbsolutePath().normalize();
    }

    private static String env(String name, String fallback) {
        var value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    private static int port(String name, int fallback) {
        return Integer.parseInt(env(name, Integer.toString(fallback)));
    }
}
