package dev.iotpipeline.kafka.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class RehearsalTopicTest {

    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

    @Test
    void namesTheServiceAndWhenItWasCreated() {
        var name = RehearsalTopic.freshName("decoder", NOW);

        assertThat(name).matches("_iot-pipeline-warmup-decoder-" + NOW.getEpochSecond() + "-[0-9a-f]{12}");
        assertThat(RehearsalTopic.freshName("decoder", NOW)).isNotEqualTo(name);
    }

    @Test
    void isLeftBehindOnlyOnceItsNamesTimeIsBeforeTheCutoff() {
        var cutoff = NOW.minus(RehearsalTopic.STALE_AFTER);

        assertThat(RehearsalTopic.createdBefore(RehearsalTopic.freshName("ingest", cutoff.minusSeconds(1)), cutoff))
                .isTrue();
        assertThat(RehearsalTopic.createdBefore(RehearsalTopic.freshName("ingest", cutoff.plusSeconds(1)), cutoff))
                .isFalse();
    }

    @Test
    void leavesEveryOtherTopicAlone() {
        var cutoff = NOW.minus(RehearsalTopic.STALE_AFTER);

        assertThat(RehearsalTopic.createdBefore("data-units", cutoff)).isFalse();
        assertThat(RehearsalTopic.createdBefore("uplinks-1-2", cutoff)).isFalse();
        assertThat(RehearsalTopic.createdBefore("_iot-pipeline-warmup-broker", cutoff))
                .isFalse();
        assertThat(RehearsalTopic.createdBefore("_iot-pipeline-warmup-notify-0a1b2c3d4e5f", cutoff))
                .isFalse();
    }
}
