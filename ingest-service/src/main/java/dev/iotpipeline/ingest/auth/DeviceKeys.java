package dev.iotpipeline.ingest.auth;

import dev.iotpipeline.ingest.IngestProperties.ApiKey;
import dev.iotpipeline.ingest.problem.Problems;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import org.springframework.http.HttpStatus;

/** Checks device bearer keys against channel-bound key hashes; only hashes are kept in memory. */
public final class DeviceKeys {

    static final String ANY_CHANNEL = "*";
    private static final String SHA256_PREFIX = "sha256:";

    private record Entry(String channel, byte[] hash) {
    }

    private final List<Entry> entries;

    public DeviceKeys(List<ApiKey> keys) {
        this.entries = keys.stream().map(k -> new Entry(k.channel(), hashOf(k.key()))).toList();
    }

    /** Throws a 401 problem for a missing or unknown key and a 403 problem for a key of another channel. */
    public void authorize(String channel, String authorizationHeader) {
        if (authorizationHeader == null || !authorizationHeader.regionMatches(true, 0, "Bearer ", 0, 7)) {
            throw Problems.of(HttpStatus.UNAUTHORIZED, "missing-credentials",
                    "Send the device key as 'Authorization: Bearer <key>'");
        }
        byte[] presented = sha256(authorizationHeader.substring(7).trim());
        boolean known = false;
        boolean allowed = false;
        // Compare against every entry so the time taken does not reveal which key matched.
        for (var entry : entries) {
            if (MessageDigest.isEqual(entry.hash(), presented)) {
                known = true;
                allowed |= entry.channel().equals(ANY_CHANNEL) || entry.channel().equals(channel);
            }
        }
        if (!known) {
            throw Problems.of(HttpStatus.UNAUTHORIZED, "invalid-credentials", "The device key is not valid");
        }
        if (!allowed) {
            throw Problems.of(HttpStatus.FORBIDDEN, "channel-forbidden",
                    "The device key is not valid for channel '" + channel + "'");
        }
    }

    private static byte[] hashOf(String configured) {
        if (configured.startsWith(SHA256_PREFIX)) {
            return HexFormat.of().parseHex(configured.substring(SHA256_PREFIX.length()));
        }
        return sha256(configured);
    }

    static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
