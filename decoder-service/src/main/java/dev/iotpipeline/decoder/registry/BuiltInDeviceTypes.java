package dev.iotpipeline.decoder.registry;

import dev.iotpipeline.decoder.codec.Codecs;
import dev.iotpipeline.events.DeviceType;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.springframework.kafka.core.KafkaOperations;

/**
 * Registers a device type for every built-in codec that the registry does not hold yet, so they work out
 * of the box; an operator's later change to one of them is kept across restarts.
 */
final class BuiltInDeviceTypes {

    private BuiltInDeviceTypes() {}

    static int register(
            Codecs codecs,
            DeviceTypeRegistry registry,
            KafkaOperations<String, Object> kafka,
            Clock clock,
            Duration timeout)
            throws Exception {
        int added = 0;
        for (var builtIn : codecs.builtIns()) {
            var name = builtIn.codec().name();
            if (registry.find(name).isEmpty()) {
                var type = new DeviceType(
                        name,
                        DeviceType.SCHEMA_VERSION,
                        name,
                        null,
                        builtIn.mapping(),
                        builtIn.description(),
                        Instant.now(clock),
                        List.of(),
                        CodecForm.BUILT_IN,
                        DeviceType.DECODED);
                registry.save(kafka::send, name, type, timeout);
                added++;
            }
        }
        return added;
    }
}
