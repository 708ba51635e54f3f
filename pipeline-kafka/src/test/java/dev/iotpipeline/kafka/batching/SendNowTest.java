package dev.iotpipeline.kafka.batching;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The hurried send: never blocks its caller, and no request goes unserved. */
class SendNowTest {

    @Test
    void shouldReturnAtOnceWhileTheFlushWaitsForTheBroker() {
        var acked = new CountDownLatch(1);
        var flushes = new AtomicInteger();
        var finished = new AtomicBoolean();
        var sendNow = new SendNow(
                () -> {
                    flushes.incrementAndGet();
                    waitFor(acked);
                    finished.set(true);
                },
                "test-send-now");

        sendNow.request();

        // Had request() run the flush itself, the flush would be over (its wait timed out) by now.
        await().atMost(Duration.ofSeconds(2))
                .untilAsserted(() -> assertThat(flushes).hasValue(1));
        assertThat(finished).isFalse();
        acked.countDown();
        await().atMost(Duration.ofSeconds(2)).untilTrue(finished);
    }

    @Test
    void shouldFlushAgainForARequestThatCameWhileAFlushRan() {
        var first = new CountDownLatch(1);
        var flushes = new AtomicInteger();
        var sendNow = new SendNow(
                () -> {
                    if (flushes.incrementAndGet() == 1) {
                        waitFor(first);
                    }
                },
                "test-send-now");

        sendNow.request();
        await().atMost(Duration.ofSeconds(2))
                .untilAsserted(() -> assertThat(flushes).hasValue(1));
        sendNow.request();
        sendNow.request();
        first.countDown();

        // The two requests during the first flush share the second one.
        await().atMost(Duration.ofSeconds(2))
                .untilAsserted(() -> assertThat(flushes).hasValue(2));
        await().during(Duration.ofMillis(200))
                .atMost(Duration.ofSeconds(1))
                .untilAsserted(() -> assertThat(flushes).hasValue(2));
    }

    @Test
    void shouldKeepServingRequestsAfterAFlushFailed() {
        var flushes = new AtomicInteger();
        var sendNow = new SendNow(
                () -> {
                    flushes.incrementAndGet();
                    throw new IllegalStateException("producer closed");
                },
                "test-send-now");

        sendNow.request();
        await().atMost(Duration.ofSeconds(2))
                .untilAsserted(() -> assertThat(flushes).hasValue(1));
        await().atMost(Duration.ofSeconds(2)).untilAsserted(() -> {
            sendNow.request();
            assertThat(flushes).hasValueGreaterThan(1);
        });
    }

    private static void waitFor(CountDownLatch latch) {
        try {
            latch.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
