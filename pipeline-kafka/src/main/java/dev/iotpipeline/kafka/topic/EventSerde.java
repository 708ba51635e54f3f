package dev.iotpipeline.kafka.topic;

import dev.iotpipeline.events.EventJson;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/** Kafka serde for one event type, backed by {@link EventJson}; a null value is a tombstone. */
public final class EventSerde<T> implements Serde<T> {

    private static final EventSerializer SERIALIZER = new EventSerializer();

    private final Class<T> type;

    public EventSerde(Class<T> type) {
        this.type = type;
    }

    /** The services' one value serializer, {@link EventSerializer}, typed for this serde. */
    @Override
    @SuppressWarnings("unchecked")
    public Serializer<T> serializer() {
        return (Serializer<T>) (Serializer<?>) SERIALIZER;
    }

    @Override
    public Deserializer<T> deserializer() {
        return (topic, bytes) -> bytes == null ? null : EventJson.read(bytes, type);
    }
}
