package dev.iotpipeline.decoder.decoding;

import dev.iotpipeline.events.EncodedUplink;
import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.kafka.topic.PipelineTopic;
import dev.iotpipeline.kafka.topic.UplinkDigest;
import dev.iotpipeline.web.warmup.Warmup;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.springframework.kafka.core.KafkaOperations;

/**
 * The decoder's hot path before readiness: uplinks.encoded records read, decoded with every known device type's
 * codec (JavaScript ones included) and the data unit serialized, as the listener does for each record, with
 * nothing sent; and the producer's metadata and connection for data-units.
 */
final class DecoderWarmup implements Warmup {

    /** An EM300-TH reading; other codecs may refuse it, which exercises their error path instead. */
    private static final byte[] PAYLOAD = HexFormat.of().parseHex("01755C03673401046865");

    /** Enough types to warm the engines, not so many that a large registry takes the whole budget to visit. */
    private static final int MAX_TYPES = 32;

    private final UplinkDecoder decoder;
    private final Supplier<List<String>> deviceTypes;
    private final KafkaOperations<String, Object> kafka;
    private List<String> types = List.of();

    DecoderWarmup(UplinkDecoder decoder, Supplier<List<String>> deviceTypes, KafkaOperations<String, Object> kafka) {
        this.decoder = decoder;
        this.deviceTypes = deviceTypes;
        this.kafka = kafka;
    }

    @Override
    public String name() {
        return "decoder";
    }

    @Override
    public void exercise(int round) {
        if (round == 0) {
            kafka.partitionsFor(PipelineTopic.DATA_UNITS.topicName());
            var known = deviceTypes.get();
            types = known.isEmpty() ? List.of("em300th") : known.subList(0, Math.min(MAX_TYPES, known.size()));
        }
        var now = Instant.now();
        var uplink = new EncodedUplink(
                new UUID(0, round),
                EncodedUplink.SCHEMA_VERSION,
                "warmup",
                types.get(round % types.size()),
                "warmup-" + round % 1000,
                85,
                PAYLOAD,
                now,
                now,
                Map.of());
        if (decoder.decode(EventJson.write(uplink)) instanceof Outcome.Decoded decoded) {
            EventJson.write(decoded.dataUnit());
            // Taken for every uplink a sender named (network servers' webhooks, idempotency keys).
            UplinkDigest.of(decoded.uplink());
        }
    }
}
