package dev.iotpipeline.localstack;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * The per-stage costs behind docs/scaling.md, measured on the stack as processes: CPU time per uplink of each
 * service, the broker and PostgreSQL (from the processes' own CPU counters), bytes per uplink in each topic's log
 * and per row in PostgreSQL. A benchmark run by {@code bench/capacity.sh}, not a test: it asserts nothing.
 */
public final class CapacityProbe {

    private static final String CHANNEL = "capacity";
    private static final String EM300TH = "01755C03673401046865";

    private CapacityProbe() {
    }

    public static void main(String[] args) throws Exception {
        Locale.setDefault(Locale.ROOT);
        int uplinks = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int concurrency = args.length > 1 ? Integer.parseInt(args[1]) : 32;
        var data = Files.createTempDirectory("iot-pipeline-capacity");
        try (var stack = ProcessStacks.start(data)) {
            var http = HttpClient.newBuilder().executor(Executors.newVirtualThreadPerTaskExecutor()).build();
            // Warm-up: the JIT and the first batches of every consumer are not what a running stack costs.
            post(stack, http, "warm", uplinks / 4, concurrency);
            awaitStored(stack, http, "warm", uplinks / 4);
            var logs = data.resolve("kafka").resolve("logs");
            var cpuBefore = cpu(stack);
            var bytesBefore = topicBytes(logs);
            long start = System.nanoTime();
            post(stack, http, CHANNEL, uplinks, concurrency);
            awaitStored(stack, http, CHANNEL, uplinks);
            double seconds = (System.nanoTime() - start) / 1e9;
            // Let the last commits and the rules' changelog flush before the counters are read again.
            Thread.sleep(3000);
            var cpuAfter = cpu(stack);
            var bytesAfter = topicBytes(logs);

            System.out.printf("Uplinks: %,d single POSTs (EM300-TH, 10 bytes) from %d concurrent clients, after a warm-up of"
                    + " %,d; stored in %.1f s (%,.0f uplinks/s, everything on this machine's two cores).%n%n",
                    uplinks, concurrency, uplinks / 4, seconds, uplinks / seconds);
            System.out.println("| process | CPU ms in all | CPU µs per uplink |");
            System.out.println("|---|---|---|");
            double total = 0;
            for (var name : cpuAfter.keySet()) {
                double millis = (cpuAfter.get(name) - cpuBefore.getOrDefault(name, 0L)) / 1e6;
                total += millis;
                System.out.printf("| %s | %,.0f | %.1f |%n", name, millis, millis * 1000 / uplinks);
            }
            System.out.printf("| **all** | %,.0f | **%.1f** |%n%n", total, total * 1000 / uplinks);
            System.out.println("| topic (all partitions, replication 1) | bytes per uplink in the log |");
            System.out.println("|---|---|");
            for (var topic : bytesAfter.keySet()) {
                long delta = bytesAfter.get(topic) - bytesBefore.getOrDefault(topic, 0L);
                if (delta > 0) {
                    System.out.printf("| %s | %.0f |%n", topic, (double) delta / uplinks);
                }
            }
            try (var connection = DriverManager.getConnection(stack.infrastructure().jdbcUrl(), Postgres.USER, "");
                    var statement = connection.createStatement();
                    var rows = statement.executeQuery("SELECT pg_total_relation_size('data_units'), count(*) FROM data_units")) {
                rows.next();
                System.out.printf("%nPostgreSQL: `data_units` with its indexes holds %,d rows in %,d bytes: %.0f bytes per row.%n",
                        rows.getLong(2), rows.getLong(1), (double) rows.getLong(1) / rows.getLong(2));
            }
        }
    }

    private static void post(ProcessStack stack, HttpClient http, String channel, int count, int concurrency)
            throws InterruptedException {
        var permits = new Semaphore(concurrency);
        var failed = new AtomicInteger();
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < count; i++) {
                permits.acquire();
                var device = channel + "-" + (i % 500);
                executor.submit(() -> {
                    try {
                        var request = HttpRequest.newBuilder(URI.create(stack.url(Service.INGEST) + "/sensor-data/"
                                        + channel + "/encoded/em300th"))
                                .header("Authorization", "Bearer " + PipelineClient.DEVICE_KEY)
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString("{\"deviceId\":\"" + device
                                        + "\",\"payloadHex\":\"" + EM300TH + "\",\"fPort\":85}")).build();
                        if (http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() != 202) {
                            failed.incrementAndGet();
                        }
                    } catch (IOException | InterruptedException e) {
                        failed.incrementAndGet();
                    } finally {
                        permits.release();
                    }
                    return null;
                });
            }
        }
        if (failed.get() > 0) {
            throw new IllegalStateException(failed.get() + " uplinks were not accepted");
        }
    }

    private static void awaitStored(ProcessStack stack, HttpClient http, String channel, int count) throws Exception {
        var request = HttpRequest.newBuilder(URI.create(stack.url(Service.NOTIFY) + "/data-units/count?channel=" + channel))
                .header("Authorization", "Bearer " + PipelineClient.DASHBOARD_TOKEN).build();
        long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        while (System.nanoTime() < deadline) {
            var body = http.send(request, HttpResponse.BodyHandlers.ofString()).body();
            if (PipelineClient.json(body).get("count").asLong() >= count) {
                return;
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("not all uplinks of " + channel + " were stored within 5 minutes");
    }

    /** CPU nanoseconds each process (PostgreSQL with its backends) has used so far. */
    private static Map<String, Long> cpu(ProcessStack stack) {
        var cpu = new LinkedHashMap<String, Long>();
        for (var instance : stack.instances()) {
            cpu.put(instance.service().shortName(), cpuOf(ProcessHandle.of(instance.pid()).orElseThrow(), false));
        }
        cpu.put("Kafka broker", cpuOf(ProcessHandle.of(stack.broker().pid()).orElseThrow(), false));
        cpu.put("PostgreSQL", cpuOf(ProcessHandle.of(stack.postgresPid()).orElseThrow(), true));
        return cpu;
    }

    private static long cpuOf(ProcessHandle process, boolean withDescendants) {
        var handles = new ArrayList<ProcessHandle>(List.of(process));
        if (withDescendants) {
            process.descendants().forEach(handles::add);
        }
        return handles.stream().mapToLong(h -> h.info().totalCpuDuration().map(Duration::toNanos).orElse(0L)).sum();
    }

    /** Bytes on disk per topic, summed over its partitions' directories. */
    private static Map<String, Long> topicBytes(Path logs) throws IOException {
        var bytes = new LinkedHashMap<String, Long>();
        try (Stream<Path> dirs = Files.list(logs)) {
            for (var dir : dirs.filter(Files::isDirectory).sorted().toList()) {
                var name = dir.getFileName().toString();
                int dash = name.lastIndexOf('-');
                if (dash < 0 || name.startsWith("__")) {
                    continue;
                }
                try (Stream<Path> files = Files.list(dir)) {
                    long size = files.filter(f -> f.toString().endsWith(".log")).mapToLong(f -> f.toFile().length()).sum();
                    bytes.merge(name.substring(0, dash), size, Long::sum);
                }
            }
        }
        return bytes;
    }
}
