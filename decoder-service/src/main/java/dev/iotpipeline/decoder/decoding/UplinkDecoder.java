package dev.iotpipeline.decoder.decoding;

import dev.iotpipeline.decoder.codec.CodecException;
import dev.iotpipeline.decoder.codec.Codecs;
import dev.iotpipeline.decoder.registry.DeviceTypeRegistry;
import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.EncodedUplink;
import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.events.Ids;
import java.time.Clock;
import java.time.Instant;
import java.util.function.Function;
import java.util.Optional;
import dev.iotpipeline.events.DeviceType;
import tools.jackson.core.JacksonException;

/** Turns one raw uplinks.encoded record into a data unit or a dead-letter reason; never throws for bad input. */
class UplinkDecoder {

    static final String DATA_UNIT_ID_PURPOSE = "data-unit";

    private final Function<String, Optional<DeviceType>> deviceTypes;
    private final Codecs codecs;
    private final Clock clock;

    UplinkDecoder(Function<String, Optional<DeviceType>> deviceTypes, Codecs codecs, Clock clock) {
        this.deviceTypes = deviceTypes;
        this.codecs = codecs;
        this.clock = clock;
    }

    UplinkDecoder(DeviceTypeRegistry registry, Codecs codecs, Clock clock) {
        this(registry::find, codecs, clock);
    }

    /** Radio metadata from a network server (rssi, snr, ...) rides along under "network". */
    private static java.util.Map<String, Object> attributes(dev.iotpipeline.decoder.codec.Decoded decoded,
            EncodedUplink uplink) {
        if (uplink.metadata().isEmpty()) {
            return decoded.attributes();
        }
        var attributes = new java.util.LinkedHashMap<>(decoded.attributes());
        attributes.put("network", uplink.metadata());
        return attributes;
    }

    Outcome decode(byte[] value) {
        EncodedUplink uplink;
        try {
            uplink = value == null ? null : EventJson.read(value, EncodedUplink.class);
        } catch (JacksonException e) {
            return new Outcome.DeadLetter("malformed event: " + e.getOriginalMessage());
        }
        if (uplink == null || uplink.id() == null || uplink.deviceType() == null || uplink.payload() == null) {
            return new Outcome.DeadLetter("malformed event: id, deviceType and payload are required");
        }
        var type = deviceTypes.apply(uplink.deviceType());
        if (type.isEmpty()) {
            return new Outcome.DeadLetter("unknown device type '" + uplink.deviceType() + "'");
        }
        var codec = codecs.find(type.get().codec());
        if (codec.isEmpty()) {
            return new Outcome.DeadLetter("device type '" + uplink.deviceType() + "' names unknown codec '"
                    + type.get().codec() + "'");
        }
        try {
            var decoded = codec.get().decode(uplink.payload(), uplink.fPort());
            return new Outcome.Decoded(new DataUnit(Ids.derive(uplink.id(), DATA_UNIT_ID_PURPOSE),
                    DataUnit.SCHEMA_VERSION, uplink.id(), uplink.channel(), uplink.deviceType(), uplink.deviceId(),
                    uplink.measuredAt() != null ? uplink.measuredAt() : uplink.receivedAt(), uplink.receivedAt(),
                    Instant.now(clock), decoded.measurements(), attributes(decoded, uplink)));
        } catch (CodecException e) {
            return new Outcome.DeadLetter(e.getMessage());
        } catch (RuntimeException e) {
            // A codec bug must cost one message, not the partition.
            return new Outcome.DeadLetter("codec " + type.get().codec() + " failed: " + e);
        }
    }
}
