package dev.iotpipeline.localstack;

import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.events.Ids;
import dev.iotpipeline.kafka.deadletter.DeadLetterHeaders;
import dev.iotpipeline.kafka.topic.TopicTail;
import dev.iotpipeline.localstack.InvariantChecker.Sources;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import tools.jackson.databind.JsonNode;

/** Reads what the pipeline really wrote, for {@link InvariantChecker}: data units in PostgreSQL and topic records. */
final class PipelineOutputs {

    /** The derivation name of an uplink's main data unit (its id is derived from the uplink's). */
    static final String MAIN_UNIT = "data-unit";

    private final Sources sources;

    PipelineOutputs(Sources sources) {
        this.sources = sources;
    }

    /** Main data units by uplink; a second, different non-history data unit of one uplink is a doubling. */
    void readStore(Set<UUID> uplinks, Map<UUID, Integer> stored, Set<UUID> extraUnits) throws SQLException {
        try (var connection =
                        DriverManager.getConnection(sources.jdbcUrl(), sources.jdbcUser(), sources.jdbcPassword());
                var statement = connection.prepareStatement("""
                        SELECT id, uplink_id, attributes->>'history' FROM data_units
                        WHERE uplink_id = ANY(?)""")) {
            var all = new ArrayList<>(uplinks);
            for (int from = 0; from < all.size(); from += 5000) {
                var chunk = all.subList(from, Math.min(all.size(), from + 5000));
                statement.setArray(1, connection.createArrayOf("uuid", chunk.toArray()));
                try (var rows = statement.executeQuery()) {
                    while (rows.next()) {
                        var id = rows.getObject(1, UUID.class);
                        var uplinkId = rows.getObject(2, UUID.class);
                        if (id.equals(Ids.derive(uplinkId, MAIN_UNIT))) {
                            stored.merge(uplinkId, 1, Integer::sum);
                        } else if (rows.getString(3) == null) {
                            extraUnits.add(uplinkId);
                        }
                    }
                }
            }
        }
    }

    /** Reads a topic from its beginning to its end of now; values that are not JSON arrive as null. */
    void readTopic(String topic, BiConsumer<ConsumerRecord<String, byte[]>, JsonNode> handler) {
        try {
            TopicTail.readToEnd(
                    sources.kafkaClient(),
                    topic,
                    Duration.ofSeconds(120),
                    record -> handler.accept(record, json(record.value())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading " + topic, e);
        }
    }

    private static JsonNode json(byte[] value) {
        if (value == null) {
            return null;
        }
        try {
            return EventJson.mapper().readTree(value);
        } catch (RuntimeException poison) {
            return null;
        }
    }

    static UUID uuid(JsonNode json, String field) {
        if (json == null || !json.hasNonNull(field)) {
            return null;
        }
        try {
            return UUID.fromString(json.get(field).asString());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    static String header(ConsumerRecord<?, ?> record, String name) {
        var value = DeadLetterHeaders.value(record.headers(), name);
        return value == null ? "?" : value;
    }
}
