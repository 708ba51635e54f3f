package dev.iotpipeline.ingest.uplink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.iotpipeline.ingest.uplink.LeanDevicePath.Match;
import dev.iotpipeline.ingest.uplink.LeanDevicePath.Route;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;

/** Which requests the lean path takes: only paths and headers it reads exactly as Spring MVC would. */
class LeanDevicePathTest {

    @Test
    void everyDeviceRouteIsMatchedWithItsChannelAndDeviceType() {
        assertThat(Match.of("/sensor-data/north/encoded/em300th"))
                .isEqualTo(new Match(Route.ENCODED, "north", "em300th"));
        assertThat(Match.of("/sensor-data/north/decoded")).isEqualTo(new Match(Route.DECODED, "north", null));
        assertThat(Match.of("/sensor-data/north/webhooks/tts")).isEqualTo(new Match(Route.TTS, "north", null));
        assertThat(Match.of("/sensor-data/north/webhooks/tts/lht65"))
                .isEqualTo(new Match(Route.TTS_TYPED, "north", "lht65"));
        assertThat(Match.of("/sensor-data/north/webhooks/chirpstack"))
                .isEqualTo(new Match(Route.CHIRPSTACK, "north", null));
        assertThat(Match.of("/sensor-data/north/webhooks/chirpstack/lht65"))
                .isEqualTo(new Match(Route.CHIRPSTACK_TYPED, "north", "lht65"));
    }

    @Test
    void pathsMvcWouldReadDifferentlyOrNotAtAllAreLeftToTheFullChain() {
        assertThat(Match.of("/sensor-data/north/encoded/em300th/")).isNull();
        assertThat(Match.of("/sensor-data/north/encoded/em%33300th")).isNull();
        assertThat(Match.of("/sensor-data/north;v=1/decoded")).isNull();
        assertThat(Match.of("/sensor-data/../decoded")).isNull();
        assertThat(Match.of("/sensor-data//decoded")).isNull();
        assertThat(Match.of("/sensor-data/north/encoded")).isNull();
        assertThat(Match.of("/sensor-data/north/webhooks/other")).isNull();
        assertThat(Match.of("/sensor-data/north/webhooks/tts/a/b")).isNull();
        assertThat(Match.of("/sensor-data/north/decoded/extra")).isNull();
        assertThat(Match.of("/other/north/decoded")).isNull();
    }

    @Test
    void onlyJsonBodiesAndAnswersThatMayBeJsonAreTaken() {
        assertThat(LeanDevicePath.json("application/json")).isTrue();
        assertThat(LeanDevicePath.json("Application/JSON; charset=UTF-8")).isTrue();
        assertThat(LeanDevicePath.json("application/problem+json")).isFalse();
        assertThat(LeanDevicePath.json("text/plain")).isFalse();
        assertThat(LeanDevicePath.json(null)).isFalse();

        assertThat(LeanDevicePath.acceptsJson(withAccept(null))).isTrue();
        assertThat(LeanDevicePath.acceptsJson(withAccept("*/*"))).isTrue();
        assertThat(LeanDevicePath.acceptsJson(withAccept("application/json, text/plain")))
                .isTrue();
        assertThat(LeanDevicePath.acceptsJson(withAccept("text/html"))).isFalse();
    }

    private static MockHttpServletRequest withAccept(String accept) {
        var request = new MockHttpServletRequest("POST", "/sensor-data/north/decoded");
        if (accept != null) {
            request.addHeader("Accept", accept);
        }
        return request;
    }
}
