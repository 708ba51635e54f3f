package dev.iotpipeline.events;

import org.apache.kafka.common.serialization.Serializer;

/** Value serializer for any event, configured by class name in the services' producer properties. */
public final class EventSerializer implements Serializer<Object> {

    @Override
    public byte[] serialize(String topic, Object value) {
        return value == null ? null : EventJson.write(value);
    }
}
