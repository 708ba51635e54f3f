package dev.iotpipeline.notify.live.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServerMessagesTest {

    @Test
    void shouldEnvelopeAnEventWithItsSubscriptionAndOptionalTraceId() {
        var prefix = ServerMessages.eventPrefix("dataUnit", "s\"1");

        assertThat(ServerMessages.event(prefix, "{\"id\":\"u1\"}", null))
                .isEqualTo("{\"type\":\"dataUnit\",\"subscription\":\"s\\\"1\",\"data\":{\"id\":\"u1\"}}");
        assertThat(ServerMessages.event(prefix, "{}", "0af7651916cd43dd8448eb211c80319c"))
                .isEqualTo(
                        "{\"type\":\"dataUnit\",\"subscription\":\"s\\\"1\",\"data\":{},\"traceId\":\"0af7651916cd43dd8448eb211c80319c\"}");
    }

    @Test
    void shouldWriteTheReplyErrorReplayedAndGapMessagesOfTheProtocol() {
        assertThat(ServerMessages.reply("pong", null)).isEqualTo("{\"type\":\"pong\"}");
        assertThat(ServerMessages.reply("subscribed", "s1")).isEqualTo("{\"type\":\"subscribed\",\"id\":\"s1\"}");
        assertThat(ServerMessages.error(null, "malformed-json", "not JSON"))
                .isEqualTo("{\"type\":\"error\",\"code\":\"malformed-json\",\"message\":\"not JSON\"}");
        assertThat(ServerMessages.replayed("s1", 42)).isEqualTo("{\"type\":\"replayed\",\"id\":\"s1\",\"count\":42}");
        assertThat(ServerMessages.gap(
                        "s1",
                        "data-units",
                        List.of(Map.of("partition", 0)),
                        Instant.parse("2026-11-26T00:00:00Z"),
                        "lost"))
                .isEqualTo("{\"type\":\"gap\",\"id\":\"s1\","
                        + "\"stream\":\"data-units\",\"partitions\":[{\"partition\":0}],"
                        + "\"lostBefore\":\"2026-11-26T00:00:00Z\",\"detail\":\"lost\"}");
    }
}
