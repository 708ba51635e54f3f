package dev.iotpipeline.notify.live.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.iotpipeline.events.Ids;
import dev.iotpipeline.notify.live.feed.DeliveryLog;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ReplayTest {

    private final DeliveryLog log = new DeliveryLog(10);

    @Test
    void shouldResumeRightAfterAnIdThisInstanceDelivered() {
        var seen = Ids.newId();
        log.started(0, 0);
        log.started(1, 7);
        log.append(seen, 0, 3);

        assertThat(Replay.resolve(seen.toString(), log).offsets()).isEqualTo(Map.of(0, 4L, 1, 7L));
    }

    @Test
    void shouldLeaveAnIdItNeverDeliveredToBeFoundInTheTopic() {
        var elsewhere = Ids.newId();

        var from = Replay.resolve(elsewhere.toString(), log);

        assertThat(from.offsets()).isNull();
        assertThat(from.time()).isNull();
        assertThat(from.event()).isEqualTo(elsewhere);
    }

    @Test
    void shouldReplayFromAnIsoTime() {
        assertThat(Replay.resolve("2026-11-22T10:15:30+01:00", log).time())
                .isEqualTo(Instant.parse("2026-11-22T09:15:30Z"));
    }

    @Test
    void shouldRefuseASinceThatIsNeitherTimeNorEventId() {
        assertThatThrownBy(() -> Replay.resolve("yesterday", log)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Replay.resolve(UUID.randomUUID().toString(), log))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
