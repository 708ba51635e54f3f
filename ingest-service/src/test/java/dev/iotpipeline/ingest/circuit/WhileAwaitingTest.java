package dev.iotpipeline.ingest.circuit;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WhileAwaitingTest {

    private final ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1);
    private final AtomicBoolean awaiting = new AtomicBoolean();
    private final AtomicInteger checks = new AtomicInteger();
    private final WhileAwaiting watch =
            new WhileAwaiting(executor, Duration.ofMillis(20), awaiting::get, checks::incrementAndGet);

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    @Test
    void shouldRepeatWhileRequestsAwaitAndStopOnceNoneDoes() {
        awaiting.set(true);
        watch.start();
        watch.start();
        await().atMost(Duration.ofSeconds(2)).until(() -> checks.get() >= 3);

        awaiting.set(false);

        // then the check that is scheduled or running is the last one
        await().atMost(Duration.ofSeconds(2))
                .until(() -> executor.getQueue().isEmpty() && executor.getActiveCount() == 0);
        int stopped = checks.get();
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2)).until(() -> checks.get() == stopped);
    }

    @Test
    void shouldRunOnceAfterAPeriodForARequestThatWasAnsweredMeanwhile() {
        watch.start();

        await().atMost(Duration.ofSeconds(2)).until(() -> checks.get() == 1);
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2)).until(() -> checks.get() == 1);
    }

    @Test
    void shouldRunAgainWhenARequestBeginsToWaitAfterAQuietSpell() {
        watch.start();
        await().atMost(Duration.ofSeconds(2)).until(() -> checks.get() == 1);

        awaiting.set(true);
        watch.start();

        await().atMost(Duration.ofSeconds(2)).until(() -> checks.get() >= 3);
    }
}
