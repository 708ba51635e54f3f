package dev.iotpipeline.notify.live.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.iotpipeline.events.Ids;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SeamTest {

    private static LiveEvent at(int partition, long offset) {
        return new LiveEvent(LiveStream.DATA_UNITS, Ids.newId(), "c", "t", "d", null, null, "{}", partition, offset);
    }

    @Test
    void shouldHoldLiveEventsUntilTheReplayEndsThenPassOnlyThoseBeyondIt() throws Seam.Overflow {
        var seam = new Seam(10);
        var covered = at(0, 4);
        var beyond = at(0, 5);
        var otherPartition = at(1, 0);

        assertThat(seam.passLive(covered, "a")).isFalse();
        assertThat(seam.passLive(beyond, "b")).isFalse();
        assertThat(seam.passLive(otherPartition, "c")).isFalse();
        seam.replayedUpTo(Map.of(0, 5L, 1, 0L));

        assertThat(seam.takeWaiting())
                .hasValueSatisfying(batch ->
                        assertThat(batch).extracting(Seam.Pending::text).containsExactly("b", "c"));
        assertThat(seam.takeWaiting()).isEmpty();
        assertThat(seam.passLive(at(0, 5), "again")).isFalse();
        assertThat(seam.passLive(at(0, 6), "next")).isTrue();
    }

    @Test
    void shouldFailTheReplayWhenLiveEventsOverflowTheBuffer() {
        var seam = new Seam(1);
        seam.passLive(at(0, 0), "a");
        seam.passLive(at(0, 1), "b");

        assertThatThrownBy(seam::takeWaiting).isInstanceOf(Seam.Overflow.class);
    }
}
