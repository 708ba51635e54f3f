package dev.iotpipeline.events;

import com.fasterxml.uuid.Generators;
import com.fasterxml.uuid.impl.NameBasedGenerator;
import com.fasterxml.uuid.impl.TimeBasedEpochGenerator;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.UUID;

/** Event ids: UUIDv7 for new events, and deterministic v7-shaped ids for events derived from others. */
public final class Ids {

    private static final TimeBasedEpochGenerator V7 = Generators.timeBasedEpochGenerator();
    private static final NameBasedGenerator CLIENT_IDS =
            Generators.nameBasedGenerator(UUID.fromString("6f1c2a3e-9a0e-4a8e-b1b4-1f3e5c7d9a21"));

    /** The first instant whose milliseconds do not fit the 48 time bits of a version 7 id. */
    private static final Instant LAST_TIMED = Instant.ofEpochMilli(1L << 48);

    private static final MessageDigest SHA_256 = sha256Prototype();

    private Ids() {}

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
     * The event id for a client-supplied idempotency key or a network server's message id, always scoped to the
     * channel and device that sent it, so equal keys in two channels or from two devices are two uplinks
     * whatever the key looks like. A key that is itself a UUIDv7 lends the id its time, so ids of well-behaved
     * clients still sort by time; any other key gives a name-based (version 5) id.
     */
    public static UUID fromClientKey(String channel, String deviceId, String key) {
        return fromClientKey(channel, deviceId, key, null);
    }

    /**
     * As {@link #fromClientKey(String, String, String)}, with the time the sender gave the message (a network
     * server's receive time): the same key sent again carries the same time, so the id stays deterministic and
     * sorts by that time. Null when the sender gave none.
     */
    public static UUID fromClientKey(String channel, String deviceId, String key, Instant sentAt) {
        var scoped = channel + '\u0000' + deviceId + '\u0000' + key;
        // A time an id cannot hold (before 1970, after the year 10889: 48 bits of milliseconds) orders nothing.
        if (sentAt != null && !sentAt.isBefore(Instant.EPOCH) && sentAt.isBefore(LAST_TIMED)) {
            return timed(sentAt.toEpochMilli(), "client-key:" + scoped);
        }
        var uuid = uuidOrNull(key);
        if (uuid != null && uuid.version() == 7) {
            return timed(uuid.getMostSignificantBits() >>> 16, "client-key:" + scoped);
        }
        return CLIENT_IDS.generate(scoped);
    }

    /**
     * The id of an event caused by no other event (a clock decided it), named by its cause: a version 7 id of
     * {@code at}'s millisecond whose other bits are a hash of {@code cause}, so the same cause, seen again after a
     * replay, gives the same id.
     */
    public static UUID named(Instant at, String cause) {
        return timed(at.toEpochMilli(), "named:" + cause);
    }

    /** A version 7 id of the given millisecond whose other bits are a hash of {@code name}. */
    private static UUID timed(long epochMillis, String name) {
        ByteBuffer bits = ByteBuffer.wrap(sha256(name));
        long msb = (epochMillis << 16) | 0x7000L | (bits.getShort() & 0x0FFFL);
        long lsb = (bits.getLong() & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
        return new UUID(msb, lsb);
    }

    private static UUID uuidOrNull(String key) {
        // UUID.fromString accepts shortened forms such as "1-2-3-4-5"; only the canonical 36 characters count.
        if (key.length() != 36) {
            return null;
        }
        try {
            return UUID.fromString(key);
        } catch (IllegalArgumentException notAUuid) {
            return null;
        }
    }

    /** The millisecond an id of version 7 (new or derived) was made at. */
    public static Instant timeOf(UUID id) {
        return Instant.ofEpochMilli(id.getMostSignificantBits() >>> 16);
    }

    /** Whether {@code a} sorts after {@code b} as UUIDv7 bytes do, which for ids of events is time order. */
    public static boolean isAfter(UUID a, UUID b) {
        int high = Long.compareUnsigned(a.getMostSignificantBits(), b.getMostSignificantBits());
        return high != 0
                ? high > 0
                : Long.compareUnsigned(a.getLeastSignificantBits(), b.getLeastSignificantBits()) > 0;
    }

    /** A fresh SHA-256 digest, for the ids here and the other hashes taken once per event. */
    public static MessageDigest sha256() {
        try {
            // A clone copies the prototype's few words of state; getInstance looks the provider up every time.
            return (MessageDigest) SHA_256.clone();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("the JDK's SHA-256 is cloneable", e);
        }
    }

    private static byte[] sha256(String text) {
        return sha256().digest(text.getBytes(StandardCharsets.UTF_8));
    }

    private static MessageDigest sha256Prototype() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every JVM", e);
        }
    }
}
