package dev.iotpipeline.ingest.uplink;

import dev.iotpipeline.kafka.warmup.RehearsalTopic;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The warm-up's own requests: they carry a secret drawn at each start, known only inside this process, and are
 * answered as a device uplink would be, written with acks=all to a topic of this instance's own instead of
 * uplinks.encoded, rate limited on a bucket of their own, without metrics.
 */
final class Rehearsal {

    static final String HEADER = "X-Iot-Warmup";

    private final String secret;
    private final String topic;

    Rehearsal() {
        var random = new SecureRandom();
        var bytes = new byte[32];
        random.nextBytes(bytes);
        this.secret = HexFormat.of().formatHex(bytes);
        // Its own draw: the name is visible to anyone who lists topics, the secret is not.
        this.topic = RehearsalTopic.freshName("ingest");
    }

    String secret() {
        return secret;
    }

    /** Where this instance's rehearsed uplinks are written: two instances warming at once do not share one. */
    String topic() {
        return topic;
    }

    /** Whether the request is one of the warm-up's; compared in constant time, as any credential. */
    boolean matches(HttpServletRequest request) {
        var presented = request.getHeader(HEADER);
        return presented != null
                && MessageDigest.isEqual(
                        presented.getBytes(StandardCharsets.US_ASCII), secret.getBytes(StandardCharsets.US_ASCII));
    }
}
