package dev.iotpipeline.decoder.registry;

import dev.iotpipeline.events.DeviceType;
import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.events.PipelineTopic;
import dev.iotpipeline.events.TopicTail;
import java.time.Duration;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** This instance's view of the compacted device-types topic, which is the source of truth for every decoder. */
public final class DeviceTypeRegistry implements AutoCloseable {

    private final Map<String, DeviceType> types = new ConcurrentHashMap<>();
    private final TopicTail tail;

    public DeviceTypeRegistry(String bootstrapServers) {
        this.tail = new TopicTail(bootstrapServers, PipelineTopic.DEVICE_TYPES.topicName(), TopicTail.Start.BEGINNING,
                this::apply);
    }

    public DeviceTypeRegistry start(Duration initialLoadTimeout) throws InterruptedException {
        tail.startReading();
        if (!tail.awaitCaughtUp(initialLoadTimeout)) {
            throw new IllegalStateException("device-types topic not readable within " + initialLoadTimeout);
        }
        return this;
    }

    void apply(ConsumerRecord<String, byte[]> record) {
        if (record.value() == null) {
            types.remove(record.key());
        } else {
            types.put(record.key(), EventJson.read(record.value(), DeviceType.class));
        }
    }

    public Optional<DeviceType> find(String name) {
        return Optional.ofNullable(types.get(name));
    }

    public List<DeviceType> all() {
        Collection<DeviceType> values = types.values();
        return values.stream().sorted(Comparator.comparing(DeviceType::name)).toList();
    }

    @Override
    public void close() {
        tail.close();
    }
}
