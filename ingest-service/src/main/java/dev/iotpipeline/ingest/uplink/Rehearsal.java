package dev.iotpipeline.ingest.uplink;

import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The warm-up's own requests: they carry a secret drawn at each start, known only inside this process, and are
 * answered as a device uplink would be, short of Kafka, rate limits and metrics.
 */
final class Rehearsal {

    static final String HEADER = "X-Iot-Warmup";

    private final String secret;

    Rehearsal() {
        var bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        this.secret = HexFormat.of().formatHex(bytes);
    }

    String secret() {
        return secret;
    }

    /** Whether the request is one of the warm-up's; compared in constant time, as any credential. */
    boolean matches(HttpServletRequest request) {
        var presented = request.getHeader(HEADER);
        return presented != null
                && MessageDigest.isEqual(
                        presented.getBytes(StandardCharsets.US_ASCII), secret.getBytes(StandardCharsets.US_ASCII));
    }
}
