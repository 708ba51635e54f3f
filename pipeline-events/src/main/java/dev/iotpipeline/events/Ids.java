package dev.iotpipeline.events;

import com.fasterxml.uuid.Generators;
import com.fasterxml.uuid.impl.NameBasedGenerator;
import com.fasterxml.uuid.impl.TimeBasedEpochGenerator;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.UUID;

/** Event ids: UUIDv7 for new events, and deterministic v7-shaped ids for events derived from others. */
public final class Ids {

    private static final TimeBasedEpochGenerator V7 = Generators.timeBasedEpochGenerator();
    private static final NameBasedGenerator CLIENT_IDS = Generators.nameBasedGenerator(
            UUID.fromString("6f1c2a3e-9a0e-4a8e-b1b4-1f3e5c7d9a21"));

    private Ids() {
    }

    public static UUID newId() {
        return V7.generate();
    }

    /**
     * Derives an id from a source id that keeps the source's millisecond timestamp, so derived ids
     * still sort by time, while the rest comes from a hash of the source and the purpose, so a replay
     * of the same source yields the same id.
     */
    public static UUID derive(UUID source, String purpose) {
        byte[] hash = sha256(purpose + ':' + source);
        ByteBuffer bits = ByteBuffer.wrap(hash);
        long timestamp = source.getMostSignificantBits() & 0xFFFF_FFFF_FFFF_0000L;
        long msb = timestamp | 0x7000L | (bits.getShort() & 0x0FFFL);
        long lsb = (bits.getLong() & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
        return new UUID(msb, lsb);
    }

    /**
     * The event id for a client-supplied idempotency key: the key itself when it is a UUID, otherwise
     * a name-based id scoped to the channel and device so equal keys from different devices differ.
     */
    public static UUID fromClientKey(String channel, String deviceId, String key) {
        try {
            return UUID.fromString(key);
        } catch (IllegalArgumentException notAUuid) {
            return CLIENT_IDS.generate(channel + '\u0000' + deviceId + '\u0000' + key);
        }
    }

    /** The millisecond an id of version 7 (new or derived) was made at. */
    public static java.time.Instant timeOf(UUID id) {
        return java.time.Instant.ofEpochMilli(id.getMostSignificantBits() >>> 16);
    }

    /** Whether {@code a} sorts after {@code b} as UUIDv7 bytes do, which for ids of events is time order. */
    public static boolean isAfter(UUID a, UUID b) {
        int high = Long.compareUnsigned(a.getMostSignificantBits(), b.getMostSignificantBits());
        return high != 0 ? high > 0 : Long.compareUnsigned(a.getLeastSignificantBits(), b.getLeastSignificantBits()) > 0;
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every JVM", e);
        }
    }
}
