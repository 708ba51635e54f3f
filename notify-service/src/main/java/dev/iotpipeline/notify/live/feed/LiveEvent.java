package dev.iotpipeline.notify.live.feed;

import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.kafka.tracing.RecordTracing;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * One event of a live stream, with what subscriptions match on, where it sits in its topic, and the trace id
 * of the uplink it came from (null when neither its record nor its event names one).
 */
public record LiveEvent(
        LiveStream stream,
        UUID id,
        String channel,
        String deviceType,
        String deviceId,
        String severity,
        Instant receivedAt,
        String json,
        int partition,
        long offset,
        String traceId) {

    public LiveEvent(
            LiveStream stream,
            UUID id,
            String channel,
            String deviceType,
            String deviceId,
            String severity,
            Instant receivedAt,
            String json,
            int partition,
            long offset) {
        this(stream, id, channel, deviceType, deviceId, severity, receivedAt, json, partition, offset, null);
    }

    /** Parses a record of {@code stream}'s topic; throws on a record that is not such an event. */
    public static LiveEvent of(LiveStream stream, ConsumerRecord<String, byte[]> record) {
        var json = new String(record.value(), StandardCharsets.UTF_8);
        return switch (stream) {
            case DATA_UNITS -> {
                var unit = EventJson.read(record.value(), Routing.class);
                var traceId = RecordTracing.traceId(record.headers(), unit.uplinkId());
                yield new LiveEvent(
                        stream,
                        unit.id(),
                        unit.channel(),
                        unit.deviceType(),
                        unit.deviceId(),
                        null,
                        unit.receivedAt(),
                        json,
                        record.partition(),
                        record.offset(),
                        traceId);
            }
            case ALARMS -> {
                var alarm = PipelineTopic.ALARMS.read(record.value());
                var traceId = RecordTracing.traceId(record.headers());
                yield new LiveEvent(
                        stream,
                        alarm.id(),
                        alarm.channel(),
                        alarm.deviceType(),
                        alarm.deviceId(),
                        alarm.severity() == null ? null : alarm.severity().name(),
                        alarm.receivedAt(),
                        json,
                        record.partition(),
                        record.offset(),
                        traceId);
            }
        };
    }

    /**
     * What the feed reads of a data unit: the fields it routes and resumes by, and its uplink (its trace id). Its
     * measurements and attributes are skipped, not built into maps, on every data unit whether or not anyone is
     * subscribed; subscribers get the record's own JSON.
     */
    record Routing(UUID id, UUID uplinkId, String channel, String deviceType, String deviceId, Instant receivedAt) {}
}
