package dev.iotpipeline.decoder.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;

class Em300thCodecTest extends CodecTestBase {

    @Override
    protected UplinkCodec codec() {
        return new Em300thCodec();
    }

    @Test
    void shouldReadHistoryRecordsWithTheirOwnTimeAndNegativeTemperatures() {
        var decoded = codec().decode(HexFormat.of().parseHex("20ce9e8f6a66f6ff5020ce1a916a66100160"), 85);

        assertThat(decoded.measurements()).isEmpty();
        assertThat(decoded.history())
                .containsExactly(
                        new Decoded.HistoryPoint(
                                Instant.ofEpochSecond(0x666A8F9EL), Map.of("temperature", -1.0, "humidity", 40.0)),
                        new Decoded.HistoryPoint(
                                Instant.ofEpochSecond(0x666A911AL), Map.of("temperature", 27.2, "humidity", 48.0)));
    }
}
