package dev.iotpipeline.ingest.devicetype;

import dev.iotpipeline.events.PipelineTopic;
import dev.iotpipeline.events.TopicTail;
import java.util.Map;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The device types known to the pipeline, learned from the compacted device-types topic, so ingest can
 * answer 404 for a type no decoder knows instead of accepting data that could only be dead-lettered.
 */
public final class DeviceTypeCatalog implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DeviceTypeCatalog.class);

    private final Set<String> known = ConcurrentHashMap.newKeySet();
    private final TopicTail tail;

    public DeviceTypeCatalog(Map<String, Object> kafkaClient, Duration initialLoadTimeout) throws InterruptedException {
        this.tail = new TopicTail(kafkaClient, PipelineTopic.DEVICE_TYPES.topicName(), TopicTail.Start.BEGINNING,
                record -> {
                    if (record.value() == null) {
                        known.remove(record.key());
                    } else {
                        known.add(record.key());
                    }
                }).startReading();
        if (!tail.awaitCaughtUp(initialLoadTimeout)) {
            log.warn("Device types not loaded within {}; unknown types are rejected until they are", initialLoadTimeout);
        }
    }

    public boolean isKnown(String deviceType) {
        return known.contains(deviceType);
    }

    public boolean isLoaded() {
        return tail.isCaughtUp();
    }

    @Override
    public void close() {
        tail.close();
    }
}
