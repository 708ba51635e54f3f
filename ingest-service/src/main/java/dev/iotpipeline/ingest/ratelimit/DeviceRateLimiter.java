package dev.iotpipeline.ingest.ratelimit;

import dev.iotpipeline.ingest.IngestProperties;
import dev.iotpipeline.web.problem.Problems;
import dev.iotpipeline.web.security.Credential;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

/**
 * Token buckets per device key or device credential (Bucket4j), counted in uplinks: one per credential that has sent
 * lately, so a million registered devices with credentials of their own cost a bucket only while they send.
 */
public final class DeviceRateLimiter {

    /** A bucket and its capacity: once it holds that many tokens again it is the same as a new one. */
    private record Limited(Bucket bucket, long capacity) {}

    private final IngestProperties.RateLimit config;
    private final Map<String, Limited> buckets = new ConcurrentHashMap<>();

    public DeviceRateLimiter(IngestProperties.RateLimit config) {
        this.config = config;
    }

    /** Takes {@code uplinks} tokens or throws a 429 problem with the seconds until they are available. */
    public void acquire(Credential.Device principal, int uplinks) {
        if (!config.enabled()) {
            return;
        }
        var bucket = buckets.computeIfAbsent(principal.id(), id -> newBucket(principal))
                .bucket();
        var probe = bucket.tryConsumeAndReturnRemaining(uplinks);
        if (!probe.isConsumed()) {
            long seconds = Math.max(1, (long) Math.ceil(probe.getNanosToWaitForRefill() / 1e9));
            var problem = Problems.of(
                    HttpStatus.TOO_MANY_REQUESTS,
                    "rate-limited",
                    "Rate limit of this device key exceeded; retry in " + seconds + " s");
            problem.getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(seconds));
            throw problem;
        }
    }

    /**
     * Drops the buckets that have refilled to capacity, answering how many: their credentials have not sent for as
     * long as a refill takes, and get a new, equally full bucket when they do. A request that took its bucket just
     * before it was dropped spends tokens of a full bucket that is then forgotten: at most one extra burst, for a
     * credential that was idle.
     */
    public int forgetIdle() {
        int before = buckets.size();
        buckets.values().removeIf(limited -> limited.bucket().getAvailableTokens() >= limited.capacity());
        return before - buckets.size();
    }

    private Limited newBucket(Credential.Device principal) {
        double rate = principal.ratePerSecond() != null ? principal.ratePerSecond() : config.uplinksPerSecond();
        long burst = principal.ratePerSecond() != null ? Math.max(1, (long) Math.ceil(rate)) : config.burst();
        // Refill in whole tokens over the period that yields one token at this rate, so fractional rates work.
        long tokens = Math.max(1, Math.round(rate));
        var period = Duration.ofNanos((long) (tokens * 1e9 / rate));
        long capacity = Math.max(burst, tokens);
        return new Limited(
                Bucket.builder()
                        .addLimit(Bandwidth.builder()
                                .capacity(capacity)
                                .refillGreedy(tokens, period)
                                .build())
                        .build(),
                capacity);
    }
}
