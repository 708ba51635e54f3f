package dev.iotpipeline.notify.live.feed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.iotpipeline.events.Ids;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class DeliveryLogTest {

    @Test
    void shouldGiveTheLastOffsetOfEveryPartitionUpToTheNamedEvent() {
        var log = new DeliveryLog(100);
        log.started(0, 10);
        log.started(1, 20);
        log.started(2, 30);
        var ids = new UUID[4];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = Ids.newId();
        }
        log.append(ids[0], 0, 10);
        log.append(ids[1], 1, 20);
        log.append(ids[2], 0, 11);
        log.append(ids[3], 1, 21);

        assertThat(log.positionsAt(ids[2]))
                .hasValueSatisfying(p -> assertThat(p).containsExactly(11, 20, 29));
        assertThat(log.positionsAt(ids[0]))
                .hasValueSatisfying(p -> assertThat(p).containsExactly(10, 19, 29));
    }

    @Test
    void shouldRememberEvictedPositionsAsTheBaseline() {
        var log = new DeliveryLog(2);
        log.started(0, 0);
        log.started(1, 0);
        var kept = Ids.newId();
        log.append(Ids.newId(), 0, 0);
        log.append(Ids.newId(), 1, 0);
        log.append(Ids.newId(), 0, 1);
        log.append(kept, 0, 2);

        assertThat(log.positionsAt(kept)).hasValueSatisfying(p -> assertThat(p).containsExactly(2, 0));
    }

    @Test
    void shouldNotFindEventsThatLeftTheWindow() {
        var log = new DeliveryLog(2);
        var gone = Ids.newId();
        log.append(gone, 0, 0);
        log.append(Ids.newId(), 0, 1);
        log.append(Ids.newId(), 0, 2);

        assertThat(log.positionsAt(gone)).isEmpty();
    }
}
