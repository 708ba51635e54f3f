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

    private CapacityProbe() {}

    /** What one run on a fresh stack measured. */
    private record Run(
            double seconds,
            Map<String, Double> cpuMillis,
            Map<String, Long> topicBytes,
            long rows,
            long historyBytes) {}

    public static void main(String[] args) throws Exception {
        Locale.setDefault(Locale.ROOT);
        int uplinks = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int concurrency = args.length > 1 ? Integer.parseInt(args[1]) : 32;
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        var measured = new ArrayList<Run>();
        for (int i = 0; i < runs; i++) {
            measured.add(run(uplinks, concurrency));
            System.err.printf(
                    "run %d of %d: %.1f s%n", i + 1, runs, measured.getLast().seconds());
        }
        System.out.printf(
                "Uplinks: %,d single POSTs (EM300-TH, 10 bytes) from %d concurrent clients per run, after a"
                        + " warm-up of %,d; %d runs, each on a fresh stack. Figures are the median of the runs, with their range;"
                        + " stored in %s s (%s uplinks/s, everything on this machine's two cores).%n%n",
                uplinks,
                concurrency,
                uplinks / 4,
                runs,
                median(measured, Run::seconds, "%.1f"),
                median(measured, r -> uplinks / r.seconds(), "%,.0f"));
        System.out.println("| process | CPU ms in all | CPU µs per uplink |");
        System.out.println("|---|---|---|");
        for (var name : measured.getFirst().cpuMillis().keySet()) {
            System.out.printf(
                    "| %s | %s | %s |%n",
                    name,
                    median(measured, r -> r.cpuMillis().get(name), "%,.0f"),
                    median(measured, r -> r.cpuMillis().get(name) * 1000 / uplinks, "%.1f"));
        }
        System.out.printf(
                "| **all** | %s | **%s** |%n%n",
                median(measured, CapacityProbe::totalCpu, "%,.0f"),
                median(measured, r -> totalCpu(r) * 1000 / uplinks, "%.1f"));
        System.out.println("| topic (all partitions, replication 1) | bytes per uplink in the log |");
        System.out.println("|---|---|");
        for (var topic : measured.getFirst().topicBytes().keySet()) {
            System.out.printf(
                    "| %s | %s |%n",
                    topic, median(measured, r -> (double) r.topicBytes().getOrDefault(topic, 0L) / uplinks, "%.0f"));
        }
        System.out.printf(
                "%nPostgreSQL: the data-unit history (`data_units` partitions with their indexes, and `devices`)"
                        + " holds %s bytes per row.%n",
                median(measured, r -> (double) r.historyBytes() / r.rows(), "%.0f"));
    }

    private static double totalCpu(Run run) {
        return run.cpuMillis().values().stream()
                .mapToDouble(Double::doubleValue)
                .sum();
    }

    /** The median of a figure over the runs, and its range when they differ: "12.3 (11.0–14.1)". */
    private static String median(List<Run> runs, java.util.function.ToDoubleFunction<Run> figure, String format) {
        var values = runs.stream().mapToDouble(figure).sorted().toArray();
        double median = values.length % 2 == 1
                ? values[values.length / 2]
                : (values[values.length / 2 - 1] + values[values.length / 2]) / 2;
        var text = format.formatted(median);
        return values.length == 1
                ? text
                : text + " (" + format.formatted(values[0]) + "–" + format.formatted(values[values.length - 1]) + ")";
    }

    private static Run run(int uplinks, int concurrency) throws Exception {
        var data = Files.createTempDirectory("iot-pipeline-capacity");
        try (var stack = ProcessStacks.start(data)) {
            var http = HttpClient.newBuilder()
                    .executor(Executors.newVirtualThreadPerTaskExecutor())
                    .build();
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
            var cpuMillis = new LinkedHashMap<String, Double>();
            cpuAfter.forEach((name, after) -> cpuMillis.put(name, (after - cpuBefore.getOrDefault(name, 0L)) / 1e6));
            var topicBytes = new LinkedHashMap<String, Long>();
            bytesAfter.forEach((topic, after) -> {
                long delta = after - bytesBefore.getOrDefault(topic, 0L);
                if (delta > 0) {
                    topicBytes.put(topic, delta);
                }
            });
            try (var connection =
                            DriverManager.getConnection(stack.infrastructure().jdbcUrl(), Postgres.USER, "");
                    var statement = connection.createStatement();
                    var rows = statement.executeQuery("""
                            SELECT (SELECT sum(pg_total_relation_size(inhrelid)) FROM pg_inherits
                                    WHERE inhparent = 'data_units'::regclass)
                                   + pg_total_relation_size('devices'), (SELECT count(*) FROM data_units)""")) {
                rows.next();
                return new Run(seconds, cpuMillis, topicBytes, rows.getLong(2), rows.getLong(1));
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
                        var request = HttpRequest.newBuilder(URI.create(
                                        stack.url(Service.INGEST) + "/sensor-data/" + channel + "/encoded/em300th"))
                                .header("Authorization", "Bearer " + PipelineClient.DEVICE_KEY)
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString("{\"deviceId\":\"" + device
                                        + "\",\"payloadHex\":\"" + EM300TH + "\",\"fPort\":85}"))
                                .build();
                        if (http.send(request, HttpResponse.BodyHandlers.discarding())
                                        .statusCode()
                                != 202) {
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
        var request = HttpRequest.newBuilder(
                        URI.create(stack.url(Service.NOTIFY) + "/data-units/count?channel=" + channel))
                .header("Authorization", "Bearer " + PipelineClient.DASHBOARD_TOKEN)
                .build();
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
            cpu.put(
                    instance.service().shortName(),
                    cpuOf(ProcessHandle.of(instance.pid()).orElseThrow(), false));
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
        return handles.stream()
                .mapToLong(
                        h -> h.info().totalCpuDuration().map(Duration::toNanos).orElse(0L))
                .sum();
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
                    long size = files.filter(f -> f.toString().endsWith(".log"))
                            .mapToLong(f -> f.toFile().length())
                            .sum();
                    bytes.merge(name.substring(0, dash), size, Long::sum);
                }
            }
        }
        return bytes;
    }
}
