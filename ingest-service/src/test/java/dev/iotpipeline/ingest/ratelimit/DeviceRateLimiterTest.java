package dev.iotpipeline.ingest.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.iotpipeline.ingest.IngestProperties;
import dev.iotpipeline.web.security.Credential;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.web.ErrorResponseException;

class DeviceRateLimiterTest {

    private final DeviceRateLimiter limiter = new DeviceRateLimiter(new IngestProperties.RateLimit(true, 1, 3));

    @Test
    void shouldAllowTheBurstThenAnswer429WithRetryAfter() {
        var key = new Credential.Device("k1", null, null);

        assertThatCode(() -> limiter.acquire(key, 3)).doesNotThrowAnyException();
        assertThatThrownBy(() -> limiter.acquire(key, 1)).isInstanceOfSatisfying(ErrorResponseException.class, e -> {
            assertThat(e.getStatusCode().value()).isEqualTo(429);
            assertThat(e.getHeaders().getFirst("Retry-After")).isEqualTo("1");
        });
    }

    @Test
    void shouldKeepSeparateBucketsPerKeyAndHonourPerKeyRates() {
        var exhausted = new Credential.Device("k1", null, null);
        var generous = new Credential.Device("k2", null, 100.0);
        limiter.acquire(exhausted, 3);

        assertThatCode(() -> limiter.acquire(generous, 100)).doesNotThrowAnyException();
    }

    @Test
    void shouldForgetABucketOnlyOnceItHasRefilledToCapacity() {
        var fast = new Credential.Device("k4", null, 1000.0);
        limiter.acquire(fast, 1000);
        limiter.acquire(new Credential.Device("k5", null, null), 3);

        assertThat(limiter.forgetIdle()).isZero();
        await().atMost(Duration.ofSeconds(5)).until(() -> limiter.forgetIdle() == 1);
        // its next request meets a new, full bucket (refill is continuous, so only the whole burst proves it)
        assertThatCode(() -> limiter.acquire(fast, 1000)).doesNotThrowAnyException();
    }

    @Test
    void shouldCountBatchItemsNotRequests() {
        var key = new Credential.Device("k3", null, null);

        assertThatThrownBy(() -> limiter.acquire(key, 4)).isInstanceOf(ErrorResponseException.class);
    }
}
