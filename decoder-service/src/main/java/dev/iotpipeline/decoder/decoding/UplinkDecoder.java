package dev.iotpipeline.decoder.decoding;

import dev.iotpipeline.decoder.codec.CodecException;
import dev.iotpipeline.decoder.codec.CodecTimeoutException;
import dev.iotpipeline.decoder.codec.Decoded;
import dev.iotpipeline.decoder.registry.ResolvedDeviceType;
import dev.iotpipeline.events.DataUnit;
import dev.iotpipeline.events.EncodedUplink;
import dev.iotpipeline.events.Ids;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import tools.jackson.core.JacksonException;

/** Turns one raw uplinks.encoded record into a data unit or a dead letter with its cause; never throws for bad input. */
class UplinkDecoder {

    static final String DATA_UNIT_ID_PURPOSE = "data-unit";

    private final Function<String, Optional<ResolvedDeviceType>> deviceTypes;
    private final Clock clock;

    UplinkDecoder(Function<String, Optional<ResolvedDeviceType>> deviceTypes, Clock clock) {
        this.deviceTypes = deviceTypes;
        this.clock = clock;
    }

    Outcome decode(byte[] value) {
        EncodedUplink uplink;
        try {
            uplink = value == null ? null : PipelineTopic.UPLINKS_ENCODED.read(value);
        } catch (JacksonException e) {
            return dead(DeadLetterCause.MALFORMED_EVENT, "malformed event: " + e.getOriginalMessage(), null, null);
        }
        if (uplink == null || uplink.id() == null || uplink.deviceType() == null || uplink.payload() == null) {
            return dead(
                    DeadLetterCause.MALFORMED_EVENT,
                    "malformed event: id, deviceType and payload are required",
                    null,
                    null);
        }
        var resolved = deviceTypes.apply(uplink.deviceType());
        if (resolved.isEmpty()) {
            return dead(
                    DeadLetterCause.UNKNOWN_DEVICE_TYPE,
                    "unknown device type '" + uplink.deviceType() + "'",
                    uplink.deviceType(),
                    null);
        }
        var type = resolved.get();
        var codecName = type.type().codec();
        if (type.codec() == null) {
            return dead(
                    DeadLetterCause.BROKEN_CODEC,
                    "codec of device type '" + uplink.deviceType() + "' cannot be built: " + type.brokenReason(),
                    uplink.deviceType(),
                    codecName);
        }
        Decoded decoded;
        try {
            decoded = FieldMapper.apply(
                    type.codec().decode(uplink.payload(), uplink.fPort()),
                    type.type().mapping());
        } catch (CodecTimeoutException e) {
            return dead(DeadLetterCause.CODEC_TIMEOUT, e.getMessage(), uplink.deviceType(), codecName);
        } catch (CodecException e) {
            return dead(DeadLetterCause.CODEC_ERROR, e.getMessage(), uplink.deviceType(), codecName);
        } catch (RuntimeException e) {
            // A codec bug must cost one message, not the partition.
            return dead(
                    DeadLetterCause.CODEC_ERROR,
                    "codec " + codecName + " failed: " + e,
                    uplink.deviceType(),
                    codecName);
        }
        var decodedAt = Instant.now(clock);
        var unit = new DataUnit(
                Ids.derive(uplink.id(), DATA_UNIT_ID_PURPOSE),
                DataUnit.SCHEMA_VERSION,
                uplink.id(),
                uplink.channel(),
                uplink.deviceType(),
                uplink.deviceId(),
                uplink.measuredAt() != null ? uplink.measuredAt() : uplink.receivedAt(),
                uplink.receivedAt(),
                decodedAt,
                decoded.measurements(),
                attributes(decoded, uplink));
        var history = new ArrayList<DataUnit>();
        for (int i = 0; i < decoded.history().size(); i++) {
            var point = decoded.history().get(i);
            history.add(new DataUnit(
                    Ids.derive(uplink.id(), DATA_UNIT_ID_PURPOSE + ":history:" + i),
                    DataUnit.SCHEMA_VERSION,
                    uplink.id(),
                    uplink.channel(),
                    uplink.deviceType(),
                    uplink.deviceId(),
                    point.measuredAt(),
                    uplink.receivedAt(),
                    decodedAt,
                    point.measurements(),
                    Map.of("history", true)));
        }
        return new Outcome.Decoded(unit, history, uplink);
    }

    /** Radio metadata from a network server (rssi, snr, ...) rides along under "network". */
    private static Map<String, Object> attributes(Decoded decoded, EncodedUplink uplink) {
        if (uplink.metadata().isEmpty()) {
            return decoded.attributes();
        }
        var attributes = new LinkedHashMap<>(decoded.attributes());
        attributes.put("network", uplink.metadata());
        return attributes;
    }

    private static Outcome dead(DeadLetterCause cause, String reason, String deviceType, String codec) {
        return new Outcome.DeadLetter(cause, reason, deviceType, codec);
    }
}
