package dev.iotpipeline.ingest.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.iotpipeline.ingest.IngestProperties;
import dev.iotpipeline.ingest.auth.DeviceKeys;
import org.junit.jupiter.api.Test;
import org.springframework.web.ErrorResponseException;

class DeviceRateLimiterTest {

    private final DeviceRateLimiter limiter = new DeviceRateLimiter(new IngestProperties.RateLimit(true, 1, 3));

    @Test
    void shouldAllowTheBurstThenAnswer429WithRetryAfter() {
        var key = new DeviceKeys.Principal("k1", null, null);

        assertThatCode(() -> limiter.acquire(key, 3)).doesNotThrowAnyException();
        assertThatThrownBy(() -> limiter.acquire(key, 1)).isInstanceOfSatisfying(ErrorResponseException.class, e -> {
            assertThat(e.getStatusCode().value()).isEqualTo(429);
            assertThat(e.getHeaders().getFirst("Retry-After")).isEqualTo("1");
        });
    }

    @Test
    void shouldKeepSeparateBucketsPerKeyAndHonourPerKeyRates() {
        var exhausted = new DeviceKeys.Principal("k1", null, null);
        var generous = new DeviceKeys.Principal("k2", null, 100.0);
        limiter.acquire(exhausted, 3);

        assertThatCode(() -> limiter.acquire(generous, 100)).doesNotThrowAnyException();
    }

    @Test
    void shouldCountBatchItemsNotRequests() {
        var key = new DeviceKeys.Principal("k3", null, null);

        assertThatThrownBy(() -> limiter.acquire(key, 4)).isInstanceOf(ErrorResponseException.class);
    }
}
