package dev.iotpipeline.kafka;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.springframework.util.backoff.BackOffExecution;
import org.springframework.util.backoff.ExponentialBackOff;

/**
 * How long to wait before a dead stream thread is replaced: not at all after a quiet spell, then from 1 s doubling
 * to 10 s while threads keep dying, so a failure that kills every new thread at once (a credential the cluster
 * refuses) is retried at a walk instead of in a loop that fills the log.
 */
final class ThreadReplacements {

    /** A thread that died this long after the last death starts the waits again from none. */
    static final Duration QUIET = Duration.ofMinutes(1);

    // Bounded low: the wait runs on the dying thread, and the client's close waits for its threads.
    private final ExponentialBackOff backOff = new ExponentialBackOff(1000, 2.0);
    private final Clock clock;
    private BackOffExecution execution;
    private Instant lastDeath;

    ThreadReplacements(Clock clock) {
        this.clock = clock;
        backOff.setMaxInterval(10_000);
    }

    /** The wait before replacing a thread that died now. */
    synchronized Duration afterDeath() {
        var now = clock.instant();
        boolean quiet = lastDeath == null || Duration.between(lastDeath, now).compareTo(QUIET) > 0;
        lastDeath = now;
        if (quiet) {
            execution = backOff.start();
            return Duration.ZERO;
        }
        return Duration.ofMillis(execution.nextBackOff());
    }
}
