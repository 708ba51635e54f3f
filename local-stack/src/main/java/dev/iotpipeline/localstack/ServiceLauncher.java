package dev.iotpipeline.localstack;

import dev.iotpipeline.localstack.ProcessStack.Instance;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Starts a service instance's process from its exec jar, and tells when it is ready. */
final class ServiceLauncher {

    // Logged under the stack's name, where logging configuration and readers of the output expect it.
    private static final Logger log = LoggerFactory.getLogger(ProcessStack.class);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(180);

    private final LocalStack.Settings settings;
    private final Path root;
    private final Infrastructure infrastructure;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    ServiceLauncher(LocalStack.Settings settings, Path root, Infrastructure infrastructure) {
        this.settings = settings;
        this.root = root;
        this.infrastructure = infrastructure;
    }

    /** Starts the instance's process, its output appended to its log; does not wait for it. */
    void spawn(Instance instance) throws IOException {
        Files.createDirectories(instance.log().getParent());
        var command = ChildJvm.command();
        // Not the stack JVM's code-cache and metaspace options: three runs a side of the seed shape measured the
        // service processes better without them
        // (docs/benchmarks/raw/experiments/latency-processes-service-options-ab.md).
        command.addAll(Arrays.asList(System.getenv()
                .getOrDefault("IOT_SERVICE_JAVA_OPTS", "-Xmx512m -XX:+UseSerialGC")
                .trim()
                .split("\\s+")));
        var execJar = execJar(instance.service());
        var extracted = AotCache.extractedJar(System.getenv(), execJar);
        if (extracted.isPresent()) {
            command.addAll(AotCache.options(System.getenv(), instance.service().shortName()));
        }
        command.add("-jar");
        command.add(extracted.orElse(execJar).toString());
        for (var property :
                ServiceProperties.of(instance.service(), settings, infrastructure, instance.port(), false)) {
            command.add("--" + property);
        }
        instance.process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(instance.log().toFile()))
                .start();
        Orphans.reapWhenParentDies(instance.process.pid(), "TERM");
    }

    private Path execJar(Service service) throws IOException {
        var target = root.resolve(service.module()).resolve("target");
        try (var jars = Files.list(target)) {
            return jars.filter(p -> p.getFileName().toString().startsWith(service.module() + "-")
                            && p.getFileName().toString().endsWith("-exec.jar"))
                    .findFirst()
                    .orElseThrow(() -> new IOException("No exec jar of " + service.module() + " in " + target
                            + ": build first (./mvnw -DskipTests package)"));
        }
    }

    /** Waits for readiness: for the consumers that includes owning their partitions, not just an open port. */
    void awaitReady(Instance instance) throws IOException, InterruptedException {
        var deadline = Instant.now().plus(READY_TIMEOUT);
        while (Instant.now().isBefore(deadline)) {
            if (!instance.process.isAlive()) {
                throw new IOException(instance + " exited with " + instance.process.exitValue() + "; " + instance.log()
                        + " ends with:\n" + tail(instance.log(), 40));
            }
            if (ready(instance)) {
                log.info("{} ready", instance);
                return;
            }
            Thread.sleep(250);
        }
        throw new IOException(instance + " not ready within " + READY_TIMEOUT + "; " + instance.log() + " ends with:\n"
                + tail(instance.log(), 40));
    }

    private static String tail(Path file, int lines) {
        try (var all = Files.lines(file)) {
            var list = all.toList();
            return String.join("\n", list.subList(Math.max(0, list.size() - lines), list.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    /** Whether the instance answers its readiness probe with 200. */
    boolean ready(Instance instance) {
        try {
            var response = http.send(
                    HttpRequest.newBuilder(URI.create(instance.url() + "/actuator/health/readiness"))
                            .timeout(Duration.ofSeconds(2))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.discarding());
            return response.statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
