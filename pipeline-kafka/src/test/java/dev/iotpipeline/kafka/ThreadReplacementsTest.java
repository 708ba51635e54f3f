package dev.iotpipeline.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import org.junit.jupiter.api.Test;

class ThreadReplacementsTest {

    private Instant now = Instant.parse("2026-12-03T19:00:00Z");
    private final ThreadReplacements replacements = new ThreadReplacements(new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    });

    @Test
    void threadsThatKeepDyingAreReplacedAfterLongerWaitsUpToTenSeconds() {
        var waits = new ArrayList<Long>();
        for (int i = 0; i < 7; i++) {
            var wait = replacements.afterDeath();
            waits.add(wait.toSeconds());
            now = now.plus(wait).plusMillis(100);
        }

        assertThat(waits).containsExactly(0L, 1L, 2L, 4L, 8L, 10L, 10L);
    }

    @Test
    void aThreadThatDiesAfterAQuietMinuteIsReplacedAtOnce() {
        replacements.afterDeath();
        replacements.afterDeath();
        assertThat(replacements.afterDeath()).isEqualTo(Duration.ofSeconds(2));

        now = now.plus(ThreadReplacements.QUIET).plusSeconds(1);

        assertThat(replacements.afterDeath()).isZero();
        assertThat(replacements.afterDeath()).isEqualTo(Duration.ofSeconds(1));
    }
}
