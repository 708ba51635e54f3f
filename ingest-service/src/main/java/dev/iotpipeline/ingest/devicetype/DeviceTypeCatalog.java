package dev.iotpipeline.ingest.devicetype;

import dev.iotpipeline.events.DeviceType;
import dev.iotpipeline.kafka.topic.CompactedRegistry;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import java.time.Duration;
import java.util.Map;
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
    private final CompactedRegistry<DeviceType> registry;

    public DeviceTypeCatalog(Map<String, Object> kafkaClient) {
        this.registry = new CompactedRegistry<>(kafkaClient, PipelineTopic.DEVICE_TYPES, (name, type) -> {
            if (type == null) {
                known.remove(name);
            } else {
                known.add(name);
            }
        });
    }

    /**
     * Starts reading; true even when the types were not all read within {@code initialLoadTimeout}: ingest serves
     * its known types meanwhile, and refuses unknown ones until they are read.
     */
    public boolean start(Duration initialLoadTimeout) throws InterruptedException {
        if (!registry.start(initialLoadTimeout)) {
            log.warn(
                    "Device types not loaded within {}; unknown types are rejected until they are", initialLoadTimeout);
        }
        return true;
    }

    public boolean isKnown(String deviceType) {
        return known.contains(deviceType);
    }

    public boolean isLoaded() {
        return registry.isLoaded();
    }

    @Override
    public void close() {
        registry.close();
    }
}
