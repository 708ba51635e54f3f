package dev.iotpipeline.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;

class UtcInstantDeserializerTest {

    record Stamped(Instant at) {}

    private static Instant read(String json) {
        return EventJson.read(json.getBytes(StandardCharsets.UTF_8), Stamped.class)
                .at();
    }

    @Test
    void readsEveryInstantAsInstantParseDoes() {
        var random = new SplittableRandom(17);
        for (int i = 0; i < 20_000; i++) {
            var instant = Instant.ofEpochSecond(
                    random.nextLong(-62_135_596_800L, 253_402_300_799L),
                    switch (i % 4) {
                        case 0 -> 0;
                        case 1 -> random.nextInt(1000) * 1_000_000;
                        case 2 -> random.nextInt(1_000_000) * 1_000;
                        default -> random.nextInt(1_000_000_000);
                    });
            var text = instant.toString();
            assertThat(UtcInstantDeserializer.parse(text)).as(text).isEqualTo(instant);
            assertThat(read("{\"at\":\"" + text + "\"}")).as(text).isEqualTo(instant);
        }
    }

    @Test
    void fractionsOfAnyLengthAndLeapDaysAreRead() {
        for (var text : new String[] {
            "2024-02-29T23:59:59Z",
            "2026-11-22T00:23:56.8Z",
            "2026-11-22T00:23:56.88Z",
            "2026-11-22T00:23:56.8856Z",
            "2026-11-22T00:23:56.885644137Z",
            "1970-01-01T00:00:00.000000001Z"
        }) {
            assertThat(UtcInstantDeserializer.parse(text)).as(text).isEqualTo(Instant.parse(text));
        }
    }

    @Test
    void otherFormsAreLeftToJackson() {
        for (var text : new String[] {
            "2026-11-22T01:23:56.5+01:00",
            "2026-11-22T00:23:56z",
            "2026-11-22 00:23:56Z",
            "2026-11-22T00:23:56.Z",
            "2026-11-22T00:23:56.1234567890Z",
            "+12026-11-22T00:23:56Z",
            "2026-11-22T00:23:60Z",
            "2026-13-22T00:23:56Z",
            "2026-02-29T00:23:56Z",
            "2026-1a-22T00:23:56Z"
        }) {
            assertThat(UtcInstantDeserializer.parse(text)).as(text).isNull();
        }
        assertThat(read("{\"at\":\"2026-11-22T01:23:56.5+01:00\"}")).isEqualTo(Instant.parse("2026-11-22T00:23:56.5Z"));
        assertThat(read("{\"at\":1700000000.25}")).isEqualTo(Instant.ofEpochSecond(1_700_000_000L, 250_000_000));
    }

    @Test
    void anImpossibleDateIsStillRefused() {
        assertThatThrownBy(() -> read("{\"at\":\"2026-02-30T00:00:00Z\"}")).isInstanceOf(JacksonException.class);
    }
}
