package dev.iotpipeline.decoder.registry;

import dev.iotpipeline.decoder.codec.Codecs;
import dev.iotpipeline.decoder.codec.UplinkCodec;
import dev.iotpipeline.events.DeviceType;
import dev.iotpipeline.kafka.topic.CompactedRegistry;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This instance's view of the compacted device-types topic, which is the source of truth for every decoder:
 * each change is compiled once when it arrives and applies to the next message, without a restart.
 */
public final class DeviceTypeRegistry implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DeviceTypeRegistry.class);

    private final Map<String, ResolvedDeviceType> types = new ConcurrentHashMap<>();
    private final Codecs codecs;
    private final CompactedRegistry<DeviceType> registry;

    public DeviceTypeRegistry(Map<String, Object> kafkaClient, Codecs codecs) {
        this.codecs = codecs;
        this.registry = new CompactedRegistry<>(kafkaClient, PipelineTopic.DEVICE_TYPES, this::apply);
    }

    public DeviceTypeRegistry start(Duration initialLoadTimeout) throws InterruptedException {
        registry.startOrFail(initialLoadTimeout);
        return this;
    }

    /** Writes a type whose codec {@code PUT} already built, and applies it with that codec. */
    public void save(
            CompactedRegistry.Sender kafka, String name, DeviceType type, UplinkCodec compiled, Duration timeout)
            throws Exception {
        registry.writeOnly(kafka, name, type, timeout);
        apply(name, type, compiled);
    }

    /** Writes a change (null deletes) and applies it, building the codec. */
    public void save(CompactedRegistry.Sender kafka, String name, DeviceType type, Duration timeout) throws Exception {
        registry.write(kafka, name, type, timeout);
    }

    /**
     * Applies a change this instance has just written with the codec {@code PUT} already built, so the script is
     * compiled once and the registry cannot disagree with what {@code PUT} answered; when the same change comes
     * back from the topic it is already current and is not compiled again.
     */
    public void apply(String name, DeviceType type, UplinkCodec compiled) {
        types.put(name, new ResolvedDeviceType(type, compiled, null));
    }

    /** Applies one registry change read from the topic (or a built-in type), building its codec. */
    public void apply(String name, DeviceType type) {
        if (type == null) {
            types.remove(name);
            return;
        }
        var current = types.get(name);
        if (current != null && current.type().equals(type)) {
            return;
        }
        try {
            types.put(name, new ResolvedDeviceType(type, codecs.resolve(type), null));
        } catch (RuntimeException e) {
            log.error(
                    "Device type {} has a codec that cannot be built; its uplinks will be dead-lettered: {}",
                    name,
                    e.getMessage());
            types.put(name, new ResolvedDeviceType(type, null, e.getMessage()));
        }
    }

    public Optional<ResolvedDeviceType> resolve(String name) {
        return Optional.ofNullable(types.get(name));
    }

    public Optional<DeviceType> find(String name) {
        return resolve(name).map(ResolvedDeviceType::type);
    }

    public List<DeviceType> all() {
        return resolvedAll().stream().map(ResolvedDeviceType::type).toList();
    }

    /** Every type with its codec, by name. */
    public List<ResolvedDeviceType> resolvedAll() {
        return types.values().stream()
                .sorted(Comparator.comparing(resolved -> resolved.type().name()))
                .toList();
    }

    @Override
    public void close() {
        registry.close();
    }
}
