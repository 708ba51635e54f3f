package dev.iotpipeline.kafka.topic;

import dev.iotpipeline.events.EventJson;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Value serializer for any event, configured by class name in the services' producer properties; raw
 * bytes pass through unchanged so a dead letter keeps the original record exactly.
 */
public final class EventSerializer implements Serializer<Object> {

    @Override
    public byte[] serialize(String topic, Object value) {
        if (value == null) {
            return null;
        }
        return value instanceof byte[] raw ? raw : EventJson.write(value);
    }
}
