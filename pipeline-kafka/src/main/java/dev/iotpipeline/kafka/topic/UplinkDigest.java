package dev.iotpipeline.kafka.topic;

import dev.iotpipeline.events.EncodedUplink;
import dev.iotpipeline.events.Ids;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Headers;

/**
 * What a sender said in one uplink, in 64 bits: device type, port, payload and measured time. A retry of the same
 * request has the same digest whenever it is received; a reused idempotency key on a different uplink has another,
 * which is how the history store tells a conflicting retry from a repeat.
 */
public final class UplinkDigest {

    /** The header on a data-units record carrying its uplink's digest, 8 bytes big-endian. */
    public static final String HEADER = "iot-uplink-digest";

    private UplinkDigest() {}

    /** The digest of what the sender chose; the receive time and network metadata are left out. */
    public static long of(EncodedUplink uplink) {
        var sha = Ids.sha256();
        var type = String.valueOf(uplink.deviceType()).getBytes(StandardCharsets.UTF_8);
        var measured = uplink.measuredAt();
        var fixed = ByteBuffer.allocate(4 + 4 + 1 + 12 + 4)
                .putInt(type.length)
                .putInt(uplink.fPort() == null ? -1 : uplink.fPort())
                .put((byte) (measured == null ? 0 : 1))
                .putLong(measured == null ? 0 : measured.getEpochSecond())
                .putInt(measured == null ? 0 : measured.getNano())
                .putInt(uplink.payload() == null ? -1 : uplink.payload().length);
        sha.update(fixed.array());
        sha.update(type);
        if (uplink.payload() != null) {
            sha.update(uplink.payload());
        }
        return ByteBuffer.wrap(sha.digest()).getLong();
    }

    public static void add(Headers headers, long digest) {
        headers.add(HEADER, ByteBuffer.allocate(Long.BYTES).putLong(digest).array());
    }

    /**
     * The digest a record carries, or null when it carries none (an uplink whose id ingest minted, see {@link
     * MintedId}; written before digests; or by another producer).
     */
    public static Long read(Headers headers) {
        var header = headers.lastHeader(HEADER);
        return header == null || header.value() == null || header.value().length != Long.BYTES
                ? null
                : ByteBuffer.wrap(header.value()).getLong();
    }
}
