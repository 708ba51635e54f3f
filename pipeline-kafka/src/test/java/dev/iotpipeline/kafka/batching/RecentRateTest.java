package dev.iotpipeline.kafka.batching;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The send rate a hop decides its linger by: a rise counts at once, a fall after a whole second. */
class RecentRateTest {

    private static final long MS = 1_000_000L;

    private final AtomicLong now = new AtomicLong(5_000 * MS);
    private final RecentRate rate = new RecentRate(now::get);

    @Test
    void shouldCountARiseWithinTheSecondItHappens() {
        assertThat(rate.add(1)).isEqualTo(1);
        now.addAndGet(100 * MS);
        assertThat(rate.add(500)).isEqualTo(501);
    }

    @Test
    void shouldKeepTheLastSecondsCountForTheWholeOfTheNext() {
        rate.add(3_000);
        now.addAndGet(1_000 * MS);
        assertThat(rate.add(1)).isEqualTo(3_000);
        now.addAndGet(900 * MS);
        assertThat(rate.add(1)).isEqualTo(3_000);
        now.addAndGet(100 * MS);
        assertThat(rate.add(1)).isEqualTo(2);
    }

    @Test
    void shouldForgetASecondFollowedByASilentOne() {
        rate.add(3_000);
        now.addAndGet(2_500 * MS);
        assertThat(rate.add(1)).isEqualTo(1);
    }

    @Test
    void shouldCountEveryItemOfConcurrentCallers() throws InterruptedException {
        var threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 10_000; i++) {
                    rate.add(1);
                }
            });
        }
        for (var thread : threads) {
            thread.join();
        }
        assertThat(rate.add(0)).isEqualTo(40_000);
    }
}
