package dev.iotpipeline.notify.live.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Frames ClientMessagePropertiesTest found, shrunk: they read as no message and the handler threw on them. */
class ClientMessageFuzzRegressionTest {

    @Test
    void shouldAnswerAnEmptyOrNullFrameWithBadMessage() {
        // Was: a null ClientMessage, then a NullPointerException in handleTextMessage (socket closed with 1011).
        for (var frame : new String[] {"", " ", "null"}) {
            var parsed = ClientMessages.parse(frame);

            assertThat(parsed.message()).as(frame).isNull();
            assertThat(parsed.rejection())
                    .as(frame)
                    .isEqualTo(new ClientMessages.Rejection(null, "bad-message", "Message must be a JSON object"));
        }
    }

    @Test
    void shouldStillReadAMessageAndNameTheBadFilter() {
        assertThat(ClientMessages.parse("{\"type\":\"ping\",\"id\":\"1\"}")
                        .message()
                        .type())
                .isEqualTo("ping");
        assertThat(ClientMessages.parse("{\"type\":\"subscribe\",\"id\":\"s\",\"filter\":{\"chanel\":\"c\"}}")
                        .rejection())
                .satisfies(r -> {
                    assertThat(r.code()).isEqualTo("bad-filter");
                    assertThat(r.id()).isEqualTo("s");
                });
    }
}
