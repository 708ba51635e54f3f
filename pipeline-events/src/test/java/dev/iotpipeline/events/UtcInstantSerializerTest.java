package dev.iotpipeline.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class UtcInstantSerializerTest {

    record Stamped(Instant at) {}

    /** Jackson's own serializer, which the events were written with before. */
    private static final JsonMapper JACKSON = JsonMapper.builder().build();

    @Test
    void writesEveryInstantAsInstantToStringAndJacksonDo() {
        var random = new SplittableRandom(23);
        for (int i = 0; i < 20_000; i++) {
            var instant = Instant.ofEpochSecond(
                    random.nextLong(-62_167_219_200L, 253_402_300_800L),
                    switch (i % 4) {
                        case 0 -> 0;
                        case 1 -> random.nextInt(1000) * 1_000_000;
                        case 2 -> random.nextInt(1_000_000) * 1_000;
                        default -> random.nextInt(1_000_000_000);
                    });
            assertThat(write(instant))
                    .as(instant.toString())
                    .isEqualTo("{\"at\":\"" + instant + "\"}")
                    .isEqualTo(JACKSON.writeValueAsString(new Stamped(instant)));
            assertThat(EventJson.instantText(instant)).isEqualTo(instant.toString());
        }
    }

    @Test
    void theEdgesOfEachFieldAreWrittenAsInstantToStringDoes() {
        for (var text : new String[] {
            "0000-01-01T00:00:00Z",
            "9999-12-31T23:59:59.999999999Z",
            "1970-01-01T00:00:00Z",
            "1969-12-31T23:59:59.999Z",
            "2024-02-29T12:00:00.000001Z",
            "2026-11-22T00:23:56.100Z",
            "2026-11-22T00:23:56.000000001Z",
            "2026-11-22T00:23:56.120Z"
        }) {
            var instant = Instant.parse(text);
            assertThat(EventJson.instantText(instant)).as(text).isEqualTo(instant.toString());
        }
    }

    @Test
    void yearsBeyondFourDigitsAreLeftToJackson() {
        for (var instant : new Instant[] {
            Instant.parse("+10000-01-01T00:00:00Z"), Instant.parse("-0001-12-31T23:59:59Z"), Instant.MAX, Instant.MIN
        }) {
            assertThat(write(instant))
                    .as(instant.toString())
                    .isEqualTo(JACKSON.writeValueAsString(new Stamped(instant)));
            assertThat(EventJson.instantText(instant)).isEqualTo(instant.toString());
        }
    }

    private static String write(Instant instant) {
        return new String(EventJson.write(new Stamped(instant)), StandardCharsets.UTF_8);
    }
}
