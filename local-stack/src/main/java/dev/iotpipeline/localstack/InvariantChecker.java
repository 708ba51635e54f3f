package dev.iotpipeline.localstack;

import static dev.iotpipeline.localstack.PipelineOutputs.MAIN_UNIT;
import static dev.iotpipeline.localstack.PipelineOutputs.header;
import static dev.iotpipeline.localstack.PipelineOutputs.uuid;

import dev.iotpipeline.events.Ids;
import dev.iotpipeline.kafka.deadletter.DeadLetterHeaders;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.kafka.topic.ReaderProperties;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import tools.jackson.databind.JsonNode;

/**
 * Checks the pipeline's one promise for a set of accepted uplinks: each ends as exactly one stored data
 * unit or one dead letter, and each device's data units reach Kafka in the order the device sent them.
 * A conflicting retry (an id accepted again for a different uplink) must end as a dead letter of its own.
 * It reads what the pipeline really wrote (PostgreSQL, the dead-letter topics, the data-units topic).
 */
public final class InvariantChecker {

    /**
     * One uplink answered 202: its id, its device, its place in that device's sending order, and whether it reused
     * the id of an uplink accepted before with a different body (a conflicting retry, which must be dead-lettered).
     */
    public record Accepted(UUID id, String deviceId, long seq, boolean conflicting) {

        public Accepted(UUID id, String deviceId, long seq) {
            this(id, deviceId, seq, false);
        }

        /** {@code uplinkId,deviceId,seq} with an optional fourth field {@code conflict}. */
        static Accepted parse(String line) {
            var fields = line.split(",");
            return new Accepted(
                    UUID.fromString(fields[0].trim()),
                    fields[1].trim(),
                    Long.parseLong(fields[2].trim()),
                    fields.length > 3 && fields[3].trim().equals("conflict"));
        }
    }

    /** Where the checker reads from: Kafka with these client settings (TLS and SASL included), and PostgreSQL. */
    public record Sources(Map<String, Object> kafkaClient, String jdbcUrl, String jdbcUser, String jdbcPassword) {

        /** A broker that needs no client settings beyond its address, such as the embedded one. */
        public Sources(String bootstrapServers, String jdbcUrl, String jdbcUser, String jdbcPassword) {
            this(ReaderProperties.of(bootstrapServers), jdbcUrl, jdbcUser, jdbcPassword);
        }
    }

    /**
     * The outcome. {@code deadLetterRedeliveries} counts dead-letter records beyond the first for one
     * uplink: a consumer that crashed after writing a dead letter writes it again (at-least-once), and,
     * like a data unit written twice under one id, that is one dead letter, not two. {@code conflicts} counts
     * conflicting retries dead-lettered ({@code idempotency-conflict}, one per distinct copy); {@code lostConflicts}
     * names ids accepted as conflicting retries more often than they ended as a stored unit or a dead letter.
     */
    public record Report(
            int accepted,
            int stored,
            int deadLettered,
            List<UUID> missing,
            List<UUID> doubled,
            Map<String, Integer> outOfOrderByDevice,
            int deadLetterRedeliveries,
            Map<String, Integer> deadLetterCauses,
            int conflicts,
            List<UUID> lostConflicts) {

        public boolean ok() {
            return missing.isEmpty() && doubled.isEmpty() && outOfOrderByDevice.isEmpty() && lostConflicts.isEmpty();
        }

        public int outOfOrder() {
            return outOfOrderByDevice.values().stream()
                    .mapToInt(Integer::intValue)
                    .sum();
        }

        public String summary() {
            return ("accepted=%d stored=%d dead-lettered=%d missing=%d doubled=%d out-of-order=%d (devices %d)"
                            + " conflicting-retries-dead-lettered=%d conflicting-retries-lost=%d%s")
                    .formatted(
                            accepted,
                            stored,
                            deadLettered,
                            missing.size(),
                            doubled.size(),
                            outOfOrder(),
                            outOfOrderByDevice.size(),
                            conflicts,
                            lostConflicts.size(),
                            deadLetterCauses.isEmpty() ? "" : " causes=" + deadLetterCauses);
        }

        public String details() {
            var text = new StringBuilder(summary());
            missing.stream().limit(20).forEach(id -> text.append("\n  missing ").append(id));
            lostConflicts.stream()
                    .limit(20)
                    .forEach(id -> text.append("\n  conflicting retry lost ").append(id));
            doubled.stream().limit(20).forEach(id -> text.append("\n  doubled ").append(id));
            outOfOrderByDevice.forEach((device, n) -> text.append("\n  out of order: ")
                    .append(device)
                    .append(" (")
                    .append(n)
                    .append(" inversions)"));
            return text.toString();
        }
    }

    private final PipelineOutputs outputs;

    public InvariantChecker(Sources sources) {
        this.outputs = new PipelineOutputs(sources);
    }

    public Report check(List<Accepted> accepted) throws SQLException {
        // The first acceptance of an id gives its device and place; conflicting ones only add a copy to account for.
        var byId = new LinkedHashMap<UUID, Accepted>();
        var conflicting = new HashMap<UUID, Integer>();
        for (var a : accepted) {
            if (a.conflicting()) {
                conflicting.merge(a.id(), 1, Integer::sum);
            }
            var known = byId.get(a.id());
            if (known == null || (known.conflicting() && !a.conflicting())) {
                byId.put(a.id(), a);
            }
        }
        var stored = new HashMap<UUID, Integer>();
        var extraUnits = new HashSet<UUID>();
        outputs.readStore(byId.keySet(), stored, extraUnits);

        // Dead letters by uplink, each copy once by the time it was received (a redelivery repeats that time).
        var deadLetters = new HashMap<UUID, Integer>();
        var deadCopies = new HashMap<UUID, Set<String>>();
        var conflictCopies = new HashMap<UUID, Set<String>>();
        var causes = new TreeMap<String, Integer>();
        outputs.readTopic(PipelineTopic.DEAD_LETTER.topicName(), (record, json) -> {
            var id = uuid(json, "id");
            if (id != null && byId.containsKey(id)) {
                deadLetters.merge(id, 1, Integer::sum);
                deadCopies.computeIfAbsent(id, k -> new HashSet<>()).add(text(json, "receivedAt"));
                causes.merge(header(record, DeadLetterHeaders.CAUSE), 1, Integer::sum);
            }
        });
        outputs.readTopic(PipelineTopic.EVENTS_DEAD_LETTER.topicName(), (record, json) -> {
            // A data unit the store writer could never store is its uplink's dead letter.
            var uplinkId = uuid(json, "uplinkId");
            var unitId = uuid(json, "id");
            if (DeadLetterHeaders.STAGE_STORE.equals(header(record, DeadLetterHeaders.STAGE))
                    && uplinkId != null
                    && byId.containsKey(uplinkId)
                    && Ids.derive(uplinkId, MAIN_UNIT).equals(unitId)) {
                var cause = header(record, DeadLetterHeaders.CAUSE);
                causes.merge(cause, 1, Integer::sum);
                if (DeadLetterHeaders.CAUSE_IDEMPOTENCY_CONFLICT.equals(cause)) {
                    conflictCopies
                            .computeIfAbsent(uplinkId, k -> new HashSet<>())
                            .add(text(json, "receivedAt"));
                } else {
                    deadLetters.merge(uplinkId, 1, Integer::sum);
                    deadCopies.computeIfAbsent(uplinkId, k -> new HashSet<>()).add(text(json, "receivedAt"));
                }
            }
        });

        var missing = new ArrayList<UUID>();
        var doubled = new ArrayList<UUID>();
        var lostConflicts = new ArrayList<UUID>();
        int storedCount = 0;
        int deadCount = 0;
        int redeliveries = 0;
        int conflicts = 0;
        for (var id : byId.keySet()) {
            int s = stored.getOrDefault(id, 0);
            int d = deadLetters.getOrDefault(id, 0);
            int c = conflictCopies.getOrDefault(id, Set.of()).size();
            int k = conflicting.getOrDefault(id, 0);
            storedCount += s > 0 ? 1 : 0;
            deadCount += d > 0 ? 1 : 0;
            conflicts += c;
            redeliveries += Math.max(0, d - 1);
            if (s == 0 && d == 0) {
                missing.add(id);
            } else if (k == 0 && ((s > 0 && d > 0) || extraUnits.contains(id))) {
                doubled.add(id);
            } else if (k > 0 && extraUnits.contains(id)) {
                doubled.add(id);
            }
            // The first acceptance ends as one outcome; each conflicting one needs its own (a conflict dead letter,
            // or a decode dead letter when its body never decoded).
            if (k > 0 && (s > 0 ? 1 : 0) + deadCopies.getOrDefault(id, Set.of()).size() + c < 1 + k) {
                lostConflicts.add(id);
            }
        }
        return new Report(
                byId.size(),
                storedCount,
                deadCount,
                missing,
                doubled,
                outOfOrder(byId),
                redeliveries,
                causes,
                conflicts,
                lostConflicts);
    }

    private static String text(JsonNode json, String field) {
        return json == null || !json.hasNonNull(field) ? "?" : json.get(field).asString();
    }

    /** Per device, the first appearance of each main data unit in data-units must follow the sending order. */
    private Map<String, Integer> outOfOrder(Map<UUID, Accepted> byId) {
        var seen = new HashSet<UUID>();
        var lastSeq = new HashMap<String, Long>();
        var inversions = new TreeMap<String, Integer>();
        outputs.readTopic(PipelineTopic.DATA_UNITS.topicName(), (record, json) -> {
            var uplinkId = uuid(json, "uplinkId");
            var accepted = uplinkId == null ? null : byId.get(uplinkId);
            if (accepted == null || !Ids.derive(uplinkId, MAIN_UNIT).equals(uuid(json, "id")) || !seen.add(uplinkId)) {
                return;
            }
            var last = lastSeq.get(accepted.deviceId());
            if (last != null && accepted.seq() < last) {
                inversions.merge(accepted.deviceId(), 1, Integer::sum);
            } else {
                lastSeq.put(accepted.deviceId(), accepted.seq());
            }
        });
        return inversions;
    }

    public static List<Accepted> readAccepted(Path file) throws IOException {
        try (var lines = Files.lines(file)) {
            return lines.filter(l -> !l.isBlank() && !l.startsWith("#"))
                    .map(Accepted::parse)
                    .toList();
        }
    }

    /**
     * {@code ./pipeline verify --accepted FILE [--wait 60s]}: checks a run's accepted uplinks against the
     * stack on IOT_KAFKA_PORT / IOT_POSTGRES_PORT (or --bootstrap / --jdbc); exit 1 on any violation. Against a
     * secured cluster, {@code --kafka-config FILE} gives Kafka client properties (security.protocol, sasl.*,
     * ssl.*), as Kafka's own tools take them with --command-config.
     */
    public static void main(String[] args) throws Exception {
        var options = new HashMap<String, String>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        if (!options.containsKey("accepted")) {
            System.err.println("usage: verify --accepted FILE (lines: uplinkId,deviceId,seq[,conflict]) [--wait 60s]"
                    + " [--bootstrap host:port] [--kafka-config client.properties] [--jdbc url] [--user postgres]"
                    + " [--password '']");
            System.exit(2);
        }
        var kafkaClient = new HashMap<String, Object>();
        if (options.containsKey("kafka-config")) {
            var file = new Properties();
            try (var in = Files.newBufferedReader(Path.of(options.get("kafka-config")))) {
                file.load(in);
            }
            file.forEach((key, value) -> kafkaClient.put(key.toString(), value));
        }
        kafkaClient.putIfAbsent(
                "bootstrap.servers", options.getOrDefault("bootstrap", "127.0.0.1:" + env("IOT_KAFKA_PORT", "9092")));
        var sources = new Sources(
                kafkaClient,
                options.getOrDefault(
                        "jdbc",
                        "jdbc:postgresql://127.0.0.1:" + env("IOT_POSTGRES_PORT", "5433") + "/" + Postgres.DATABASE),
                options.getOrDefault("user", Postgres.USER),
                options.getOrDefault("password", ""));
        var accepted = readAccepted(Path.of(options.get("accepted")));
        var wait = Duration.parse("PT" + options.getOrDefault("wait", "0s").toUpperCase());
        var checker = new InvariantChecker(sources);
        var deadline = Instant.now().plus(wait);
        var report = checker.check(accepted);
        // Uplinks still in flight are not missing yet, nor conflicting retries lost: look again until the deadline.
        while (!(report.missing().isEmpty() && report.lostConflicts().isEmpty())
                && Instant.now().isBefore(deadline)) {
            Thread.sleep(1000);
            report = checker.check(accepted);
        }
        System.out.println(report.details());
        System.exit(report.ok() ? 0 : 1);
    }

    private static String env(String name, String fallback) {
        var value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
