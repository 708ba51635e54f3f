package dev.iotpipeline.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.iotpipeline.events.Ids;
import dev.iotpipeline.kafka.deadletter.DeadLetterHeaders;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.kafka.topic.ReaderProperties;
import dev.iotpipeline.kafka.topic.TopicTail;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * The fault suite: the services as processes under steady load, and one fault after another (kill -9 of
 * each service, of the broker, of PostgreSQL, of everything; poison records in every topic). Every
 * uplink answered 202 must end as exactly one stored data unit or one dead letter, in order per device,
 * and every hot uplink must raise exactly one alarm. {@code -Dfaults.full=true} runs the long form and
 * writes its report to {@code -Dfaults.report} (docs/benchmarks/faults.md via {@code ./pipeline faults}).
 */
class FaultSuiteIT {

    private static final boolean FULL = Boolean.getBoolean("faults.full");
    private static final int DEVICES = FULL ? 50 : 12;
    private static final int RATE = FULL ? 250 : 60;
    private static final Duration SETTLE = Duration.ofSeconds(FULL ? 15 : 4);
    private static final Duration OUTAGE = Duration.ofSeconds(FULL ? 10 : 4);
    private static final String CHANNEL = "faults";

    /** When a fault struck and when what it killed was back up (ready), in System.nanoTime(). */
    private record Timing(long faultAt, long upAt) {}

    @FunctionalInterface
    private interface Fault {
        Timing inject() throws Exception;
    }

    private record Phase(String fault, long from, long to, Timing timing, double resumeSeconds) {}

    /** Under target/, not a temporary directory, so the processes' logs outlive a failed run. */
    private final Path data =
            Path.of("target", "faults-" + System.currentTimeMillis()).toAbsolutePath();

    private ProcessStack stack;
    private SteadyLoad load;

    @Test
    void everyAcceptedUplinkEndsAsOneStoredDataUnitOrOneDeadLetterWhateverIsKilled() throws Exception {
        try (var started = ProcessStacks.start(data)) {
            stack = started;
            var ruleId = ProcessStacks.createHotRule(stack, CHANNEL);
            var phases = new ArrayList<Phase>();
            try (var running = new SteadyLoad(
                            stack.url(Service.INGEST), PipelineClient.DEVICE_KEY, CHANNEL, DEVICES, RATE)
                    .withConflictingRetries()
                    .start()) {
                load = running;
                phases.add(phase("none (steady load)", () -> new Timing(System.nanoTime(), System.nanoTime())));
                for (var service : List.of(Service.DECODER, Service.RULES, Service.NOTIFY, Service.INGEST)) {
                    phases.add(phase("kill -9 " + service.shortName(), () -> killAndRestart(service)));
                }
                phases.add(phase("kill -9 a second decoder, not restarted", this::killExtraDecoder));
                phases.add(phase("kill -9 broker", this::killBroker));
                phases.add(phase("kill -9 PostgreSQL", this::killPostgres));
                phases.add(phase("kill -9 everything", this::killEverything));
                phases.add(phase("poison record in every topic", this::poison));
            }
            var all = load.sent().stream().map(SteadyLoad.Sent::accepted).toList();
            var checker = new InvariantChecker(new InvariantChecker.Sources(
                    stack.broker().bootstrapServers(), stack.infrastructure().jdbcUrl(), Postgres.USER, ""));
            var total = drain(checker, all);
            var rows = new ArrayList<String>();
            var measured = new ArrayList<Measured>();
            var failures = new ArrayList<String>();
            for (var phase : phases) {
                var accepted = load.sentBetween(phase.from(), phase.to()).stream()
                        .map(SteadyLoad.Sent::accepted)
                        .toList();
                var report = checker.check(accepted);
                var figures = measured(phase, report);
                rows.add(row(phase, report, figures));
                measured.add(figures);
                if (!report.ok()) {
                    failures.add(phase.fault() + ": " + report.details());
                }
            }
            var alarms = alarms(ruleId);
            var poison = deadLettersBySource();
            writeReport(rows, total, alarms, poison, recordRun(measured));

            assertThat(failures).as("phases with a violated invariant").isEmpty();
            assertThat(total.ok()).as(total.details()).isTrue();
            assertThat(load.conflictingRetries())
                    .as("conflicting retries answered 202")
                    .isPositive();
            assertThat(total.conflicts())
                    .as("conflicting retries dead-lettered as idempotency-conflict")
                    .isGreaterThanOrEqualTo((int) load.conflictingRetries());
            assertThat(alarms.missing()).as("alarms lost").isEmpty();
            assertThat(alarms.extra())
                    .as("alarms raised twice or without cause")
                    .isEmpty();
            for (var topic : POISONED) {
                assertThat(poison.getOrDefault(topic, 0))
                        .as("dead letters of poison in " + topic)
                        .isPositive();
            }
            assertNoSecretInLogs(data.resolve("logs"));
        }
    }

    /** Every service logged its whole life here, crashes and restarts included: no secret may appear. */
    private static void assertNoSecretInLogs(Path logs) throws IOException {
        try (var files = Files.list(logs)) {
            for (var log : files.toList()) {
                assertThat(new String(Files.readAllBytes(log), StandardCharsets.ISO_8859_1))
                        .as(log.getFileName().toString())
                        .doesNotContain(
                                PipelineClient.DEVICE_KEY, PipelineClient.DASHBOARD_TOKEN, PipelineClient.ADMIN_TOKEN);
            }
        }
    }

    private Phase phase(String name, Fault fault) throws Exception {
        long from = System.nanoTime();
        Thread.sleep(SETTLE);
        var timing = fault.inject();
        double resume = resumeSeconds(timing.upAt());
        Thread.sleep(SETTLE);
        return new Phase(name, from, System.nanoTime(), timing, resume);
    }

    private Timing killAndRestart(Service service) throws Exception {
        var instance = stack.first(service);
        long faultAt = System.nanoTime();
        stack.kill(instance);
        stack.restart(instance);
        return new Timing(faultAt, System.nanoTime());
    }

    /**
     * Scaled out to two decoders, one dies for good: the survivor takes its partitions once the group's
     * session timeout (10 s) declares it dead. Nothing restarts, so "up" is the moment of the kill.
     */
    private Timing killExtraDecoder() throws Exception {
        var extra = stack.startInstance(Service.DECODER, EmbeddedStack.freePort());
        Thread.sleep(SETTLE);
        long faultAt = System.nanoTime();
        stack.kill(extra);
        stack.forget(extra);
        return new Timing(faultAt, faultAt);
    }

    private Timing killBroker() throws Exception {
        long faultAt = System.nanoTime();
        stack.broker().kill();
        Thread.sleep(OUTAGE);
        stack.broker().restart(Duration.ofSeconds(90));
        return new Timing(faultAt, System.nanoTime());
    }

    private Timing killPostgres() throws Exception {
        long faultAt = System.nanoTime();
        stack.killPostgres();
        Thread.sleep(OUTAGE);
        stack.restartPostgres();
        return new Timing(faultAt, System.nanoTime());
    }

    private Timing killEverything() throws Exception {
        long faultAt = System.nanoTime();
        var instances = stack.instances();
        for (var instance : instances) {
            stack.kill(instance);
        }
        stack.broker().kill();
        stack.killPostgres();
        stack.broker().restart(Duration.ofSeconds(90));
        stack.restartPostgres();
        stack.restartAll(instances);
        return new Timing(faultAt, System.nanoTime());
    }

    private static final List<String> POISONED = List.of(
            PipelineTopic.UPLINKS_ENCODED.topicName(),
            PipelineTopic.DATA_UNITS.topicName(),
            PipelineTopic.ALARMS.topicName(),
            PipelineTopic.ALARM_COMMANDS.topicName());

    /** Bytes that are no event, and a data unit PostgreSQL refuses (a NUL in a text column), on every topic. */
    private Timing poison() {
        long faultAt = System.nanoTime();
        var props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.broker().bootstrapServers());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        try (var producer = new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer())) {
            for (var topic : POISONED) {
                producer.send(
                        new ProducerRecord<>(topic, CHANNEL + "-0", "{not json".getBytes(StandardCharsets.UTF_8)));
            }
            var uplink = Ids.newId();
            var refused = """
                    {"id":"%s","schemaVersion":1,"uplinkId":"%s","channel":"%s","deviceType":"em300th",
                     "deviceId":"nul\\u0000device","measuredAt":"%s","receivedAt":"%s","decodedAt":"%s",
                     "measurements":{"temperature":20.0},"attributes":{}}""".formatted(
                    Ids.derive(uplink, "data-unit"), uplink, CHANNEL, Instant.now(), Instant.now(), Instant.now());
            producer.send(new ProducerRecord<>(
                    PipelineTopic.DATA_UNITS.topicName(), "nul-device", refused.getBytes(StandardCharsets.UTF_8)));
            producer.flush();
        }
        return new Timing(faultAt, System.nanoTime());
    }

    /**
     * Seconds from the moment the killed part was back until the pipeline is whole again: every uplink
     * accepted in the first second after that is stored (so every partition flows, backlog included).
     */
    private double resumeSeconds(long upAt) throws Exception {
        Thread.sleep(1000);
        var probe = load.newUplinksBetween(upAt, upAt + TimeUnit.SECONDS.toNanos(1)).stream()
                .map(s -> Ids.derive(s.accepted().id(), "data-unit"))
                .toList();
        var deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (System.nanoTime() < deadline) {
            if (probe.isEmpty()) {
                // ingest itself was not accepting yet: wait for the first 202s
                probe = load.latestAfter(upAt)
                        .map(s -> List.of(Ids.derive(s.accepted().id(), "data-unit")))
                        .orElse(List.of());
            } else if (storedCount(probe) == probe.size()) {
                return (System.nanoTime() - upAt) / 1e9;
            }
            Thread.sleep(100);
        }
        return Double.POSITIVE_INFINITY;
    }

    private int storedCount(List<UUID> ids) {
        try (var connection = DriverManager.getConnection(stack.infrastructure().jdbcUrl(), Postgres.USER, "");
                var statement = connection.prepareStatement("SELECT count(*) FROM data_units WHERE id = ANY(?)")) {
            statement.setArray(1, connection.createArrayOf("uuid", ids.toArray()));
            try (var rows = statement.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        } catch (java.sql.SQLException databaseDown) {
            return -1;
        }
    }

    /**
     * Waits until nothing accepted is missing any more and every conflicting retry has its dead letter (in flight
     * is not lost), then returns the full check.
     */
    private static InvariantChecker.Report drain(InvariantChecker checker, List<InvariantChecker.Accepted> all)
            throws Exception {
        awaitOrReport(Duration.ofSeconds(180), () -> {
            var report = checker.check(all);
            return report.missing().isEmpty() && report.lostConflicts().isEmpty();
        });
        return checker.check(all);
    }

    /** Awaits a condition; on timeout returns anyway, so the report shows what is missing and the asserts fail. */
    private static void awaitOrReport(Duration atMost, java.util.concurrent.Callable<Boolean> condition) {
        try {
            await().atMost(atMost)
                    .pollInterval(Duration.ofSeconds(1))
                    .ignoreExceptions()
                    .until(condition);
        } catch (org.awaitility.core.ConditionTimeoutException reportedBelow) {
            // the caller checks again and reports
        }
    }

    private record Alarms(int expected, int stored, Set<UUID> missing, Set<UUID> extra) {}

    /** Each hot uplink raises exactly one alarm, whose id derives from its data unit and the rule. */
    private Alarms alarms(String ruleId) throws Exception {
        var expected = new HashSet<UUID>();
        for (var sent : load.sent()) {
            if (sent.hot()) {
                expected.add(Ids.derive(Ids.derive(sent.accepted().id(), "data-unit"), "alarm:" + ruleId));
            }
        }
        awaitOrReport(
                Duration.ofSeconds(60),
                () -> ProcessStacks.storedAlarms(stack, ruleId).containsAll(expected));
        var stored = ProcessStacks.storedAlarms(stack, ruleId);
        var missing = new HashSet<>(expected);
        missing.removeAll(stored);
        var extra = new HashSet<>(stored);
        extra.removeAll(expected);
        return new Alarms(expected.size(), stored.size(), missing, extra);
    }

    /** Dead-letter records of either dead-letter topic, by the topic the failed record came from. */
    private Map<String, Integer> deadLettersBySource() throws InterruptedException {
        var counts = new java.util.concurrent.ConcurrentHashMap<String, Integer>();
        for (var topic : List.of(PipelineTopic.DEAD_LETTER, PipelineTopic.EVENTS_DEAD_LETTER)) {
            TopicTail.readToEnd(
                    ReaderProperties.of(stack.broker().bootstrapServers()),
                    topic.topicName(),
                    Duration.ofSeconds(30),
                    record -> {
                        var source = DeadLetterHeaders.value(record.headers(), DeadLetterHeaders.SOURCE);
                        if (source != null) {
                            counts.merge(DeadLetterHeaders.sourceTopic(source), 1, Integer::sum);
                        }
                    });
        }
        return counts;
    }

    /** One phase's figures as kept across runs (-Dfaults.runs names a JSON-lines file that collects them). */
    record Measured(
            String fault,
            int accepted,
            int violations,
            double downUpSeconds,
            double resumeSeconds,
            int refused,
            Double median503Millis,
            Double max503Millis,
            Double postP99AfterUpMillis) {}

    private Measured measured(Phase phase, InvariantChecker.Report report) {
        var refusals = refusals(phase);
        return new Measured(
                phase.fault(),
                report.accepted(),
                report.missing().size()
                        + report.doubled().size()
                        + report.outOfOrder()
                        + report.lostConflicts().size(),
                (phase.timing().upAt() - phase.timing().faultAt()) / 1e9,
                phase.resumeSeconds(),
                refusals.length,
                refusals.length == 0 ? null : refusals[refusals.length / 2] / 1e6,
                refusals.length == 0 ? null : refusals[refusals.length - 1] / 1e6,
                postP99AfterUp(phase));
    }

    private long[] refusals(Phase phase) {
        return load.answersBetween(phase.timing().faultAt(), phase.timing().upAt()).stream()
                .filter(a -> a.status() == 503)
                .mapToLong(SteadyLoad.Answer::latencyNanos)
                .sorted()
                .toArray();
    }

    /** The p99 answer time of the POSTs answered from the part's return until the phase ended, in ms. */
    private Double postP99AfterUp(Phase phase) {
        var latencies = load.answersBetween(phase.timing().upAt(), phase.to()).stream()
                .mapToLong(SteadyLoad.Answer::latencyNanos)
                .sorted()
                .toArray();
        return latencies.length == 0 ? null : latencies[(int) Math.ceil(latencies.length * 0.99) - 1] / 1e6;
    }

    private static String millis(Double value) {
        return value == null ? "–" : "%.1f".formatted(value);
    }

    /** Appends this run to the runs file, if any, and returns every run recorded there (this one last). */
    private static List<List<Measured>> recordRun(List<Measured> run) throws Exception {
        var file = System.getProperty("faults.runs");
        if (file == null) {
            return List.of(run);
        }
        var path = Path.of(file);
        Files.createDirectories(path.toAbsolutePath().getParent());
        var mapper = dev.iotpipeline.events.EventJson.mapper();
        Files.writeString(
                path,
                mapper.writeValueAsString(run) + "\n",
                java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND);
        var type = mapper.getTypeFactory().constructCollectionType(List.class, Measured.class);
        var runs = new ArrayList<List<Measured>>();
        for (var line : Files.readAllLines(path)) {
            if (!line.isBlank()) {
                runs.add(mapper.readValue(line, type));
            }
        }
        return runs;
    }

    /** Per fault over all runs: medians of the timings, sums of accepted uplinks and of violations. */
    private static String acrossRuns(List<List<Measured>> runs) {
        var text = new StringBuilder(
                "## Across %d runs (medians; sums of accepted and violations)\n\n".formatted(runs.size()));
        text.append("| fault | accepted | violations | down → up (s) | resume after up (s) | POST p99 after up (ms)")
                .append(" | 503 median (ms) | 503 max (ms) |\n");
        text.append("|---|---|---|---|---|---|---|---|\n");
        var byFault = new java.util.LinkedHashMap<String, List<Measured>>();
        runs.forEach(run -> run.forEach(
                m -> byFault.computeIfAbsent(m.fault(), f -> new ArrayList<>()).add(m)));
        byFault.forEach((fault, ms) -> text.append("| %s | %d | %d | %.1f | %.1f | %s | %s | %s |\n"
                .formatted(
                        fault,
                        ms.stream().mapToInt(Measured::accepted).sum(),
                        ms.stream().mapToInt(Measured::violations).sum(),
                        median(ms.stream().map(Measured::downUpSeconds).toList()),
                        median(ms.stream().map(Measured::resumeSeconds).toList()),
                        millis(medianOf(ms, Measured::postP99AfterUpMillis)),
                        millis(medianOf(ms, Measured::median503Millis)),
                        millis(medianOf(ms, Measured::max503Millis)))));
        text.append("\nEach run's timings (s, resume after up): ");
        byFault.forEach((fault, ms) -> text.append(fault)
                .append(' ')
                .append(ms.stream()
                        .map(m -> "%.1f".formatted(m.resumeSeconds()))
                        .toList())
                .append("; "));
        return text.append("\n\n").toString();
    }

    private static double median(List<Double> values) {
        var sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }

    /** The median over the runs that have the figure (runs recorded before it was measured have none). */
    private static Double medianOf(List<Measured> runs, Function<Measured, Double> figure) {
        var values = runs.stream().map(figure).filter(Objects::nonNull).toList();
        return values.isEmpty() ? null : median(values);
    }

    private static String row(Phase phase, InvariantChecker.Report report, Measured figures) {
        var refused = figures.refused() == 0
                ? "– | –"
                : "%s ms (%d) | %s ms"
                        .formatted(
                                millis(figures.median503Millis()), figures.refused(), millis(figures.max503Millis()));
        return "| %s | %d | %d | %d | %d | %d | %d | %d / %d | %.1f | %.1f | %s | %s |"
                .formatted(
                        phase.fault(),
                        report.accepted(),
                        report.stored(),
                        report.deadLettered(),
                        report.missing().size(),
                        report.doubled().size(),
                        report.outOfOrder(),
                        report.conflicts(),
                        report.lostConflicts().size(),
                        (phase.timing().upAt() - phase.timing().faultAt()) / 1e9,
                        phase.resumeSeconds(),
                        millis(figures.postP99AfterUpMillis()),
                        refused);
    }

    private void writeReport(
            List<String> rows,
            InvariantChecker.Report total,
            Alarms alarms,
            Map<String, Integer> poison,
            List<List<Measured>> runs)
            throws Exception {
        var text = new StringBuilder();
        text.append("# Fault suite").append(FULL ? "" : " (short form)").append("\n\n");
        text.append("Command: `./pipeline faults` (full) or `./pipeline test` (short form, in CI). Run at ")
                .append(Instant.now())
                .append(" on ")
                .append(Runtime.getRuntime().availableProcessors())
                .append(" cores; ")
                .append(DEVICES)
                .append(" devices, ")
                .append(RATE)
                .append(" uplinks/s in a closed loop per device, retrying under the same id until 202; each")
                .append(" service a process of its own, PostgreSQL durable (fsync, synchronous_commit on).\n\n");
        if (runs.size() > 1) {
            text.append(acrossRuns(runs));
            text.append("## The last run\n\n");
        }
        text.append("| fault | accepted | stored | dead-lettered | missing | doubled | out of order")
                .append(" | conflicting retries dead-lettered / lost | down → up (s) | resume after up (s)")
                .append(" | POST p99 after up (ms) | 503 median (count) | 503 max |\n");
        text.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        rows.forEach(r -> text.append(r).append('\n'));
        text.append("\nWhole run: ")
                .append(total.summary())
                .append(", dead-letter redeliveries ")
                .append(total.deadLetterRedeliveries())
                .append(".\n\n");
        text.append("Alarms (rule temperature > 30, one per hot uplink): expected ")
                .append(alarms.expected())
                .append(", stored ")
                .append(alarms.stored())
                .append(", lost ")
                .append(alarms.missing().size())
                .append(", raised twice or without cause ")
                .append(alarms.extra().size())
                .append(".\n\n");
        text.append("Dead letters by source topic (poison records and the refused data unit): ")
                .append(poison)
                .append(".\n\n");
        text.append("""
                Columns: *accepted* uplinks answered 202 during the phase; *stored* and *dead-lettered* are read
                back from PostgreSQL and the dead-letter topics by the invariant checker (`./pipeline verify`);
                *missing* (neither), *doubled* (both, or two data units for one uplink) and *out of order* (a
                device's data units reaching Kafka in another order than it sent them) must be 0. Every
                %dth uplink is followed by a conflicting retry (its client id again, another battery reading): each
                must end as an `idempotency-conflict` dead letter, so *lost* must be 0. *down → up*
                is from the kill to the restarted part reporting ready (0 when nothing restarts); *resume after
                up* is from then until every uplink accepted in the first second after it is stored (so backlog
                included, and never below about 1 s: the steady row shows the floor). *POST p99 after up* is the
                99th percentile of ingest's answer times from then until the phase ended (the resume time and
                %d s more; the steady row shows the load's own). *503 median* and *max* are ingest's answer times
                while the broker was down.
                """.formatted(SteadyLoad.CONFLICT_EVERY, SETTLE.toSeconds()));
        var target = Path.of(System.getProperty("faults.report", "target/faults.md"));
        Files.createDirectories(target.toAbsolutePath().getParent());
        Files.writeString(target, text);
        System.out.println(text);
    }
}
