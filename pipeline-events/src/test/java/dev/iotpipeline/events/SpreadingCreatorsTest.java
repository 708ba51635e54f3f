package dev.iotpipeline.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.exc.ValueInstantiationException;

class SpreadingCreatorsTest {

    /** Remembers who called its constructor. */
    record Traced(String name, int count, List<String> tags, boolean creatorSpread) {
        Traced {
            creatorSpread = Arrays.stream(new Throwable().getStackTrace())
                    .anyMatch(frame -> frame.getClassName().endsWith("SpreadingCreators$Spreading"));
        }
    }

    record Checked(int count) {
        Checked {
            if (count < 0) {
                throw new IllegalArgumentException("count must not be negative");
            }
        }
    }

    private record Hidden(String name, long value) {}

    @Test
    void aRecordIsCreatedThroughTheSpreadingHandle() {
        var read = read("{\"name\":\"a\",\"count\":3,\"tags\":[\"x\"]}", Traced.class);

        assertThat(read.name()).isEqualTo("a");
        assertThat(read.count()).isEqualTo(3);
        assertThat(read.tags()).containsExactly("x");
        assertThat(read.creatorSpread()).isTrue();
    }

    @Test
    void missingPropertiesAreTheirDefaultsAsBefore() {
        var read = read("{}", Traced.class);

        assertThat(read.name()).isNull();
        assertThat(read.count()).isZero();
        assertThat(read.tags()).isNull();
    }

    @Test
    void aPrivateRecordIsCreatedToo() {
        assertThat(read("{\"name\":\"b\",\"value\":7}", Hidden.class)).isEqualTo(new Hidden("b", 7));
    }

    @Test
    void theConstructorsOwnRefusalIsReportedAsJacksonReportsIt() {
        assertThatThrownBy(() -> read("{\"count\":-1}", Checked.class))
                .isInstanceOf(ValueInstantiationException.class)
                .hasMessageContaining("count must not be negative")
                .hasRootCauseInstanceOf(IllegalArgumentException.class);
    }

    private static <T> T read(String json, Class<T> type) {
        return EventJson.read(json.getBytes(StandardCharsets.UTF_8), type);
    }
}
