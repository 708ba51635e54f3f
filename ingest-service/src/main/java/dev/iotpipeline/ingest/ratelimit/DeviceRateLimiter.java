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
 * Token buckets per device key or device credential (Bucket4j), counted in uplinks: one per credential that has sent,
 * so as many as the configured keys plus the registered devices that post with their own credential.
 */
public final class DeviceRateLimiter {

    private final IngestProperties.RateLimit config;
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

    public DeviceRateLimiter(IngestProperties.RateLimit config) {
        this.config = config;
    }

    /** Takes {@code uplinks} tokens or throws a 429 problem with the seconds until they are available. */
    public void acquire(Credential.Device principal, int uplinks) {
        if (!config.enabled()) {
            return;
        }
        var bucket = buckets.computeIfAbsent(principal.id(), id -> newBucket(principal));
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

    private Bucket newBucket(Credential.Device principal) {
        double rate = principal.ratePerSecond() != null ? principal.ratePerSecond() : config.uplinksPerSecond();
        long burst = principal.ratePerSecond() != null ? Math.max(1, (long) Math.ceil(rate)) : config.burst();
        // Refill in whole tokens over the period that yields one token at this rate, so fractional rates work.
        long tokens = Math.max(1, Math.round(rate));
        var period = Duration.ofNanos((long) (tokens * 1e9 / rate));
        return Bucket.builder()
                .addLimit(Bandwidth.builder()
                        .capacity(Math.max(burst, tokens))
                        .refillGreedy(tokens, period)
                        .build())
                .build();
    }
}
