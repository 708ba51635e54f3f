package dev.iotpipeline.events;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/** Kafka serde for one event type, backed by {@link EventJson}; a null value is a tombstone. */
public final class EventSerde<T> implements Serde<T> {

    private final Class<T> type;

    public EventSerde(Class<T> type) {
        this.type = type;
    }

    @Override
    public Serializer<T> serializer() {
        return (topic, value) -> value == null ? null : EventJson.write(value);
    }

    @Override
    public Deserializer<T> deserializer() {
        return (topic, bytes) -> bytes == null ? null : EventJson.read(bytes, type);
    }
}
