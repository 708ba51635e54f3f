package dev.iotpipeline.notify.live.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.iotpipeline.events.Ids;
import dev.iotpipeline.events.fuzz.Fuzz;
import dev.iotpipeline.events.fuzz.JsonFuzz;
import dev.iotpipeline.notify.live.feed.DeliveryLog;
import dev.iotpipeline.notify.live.replay.Replay;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * The {@code /ws} protocol's reading of a client's text frame: any frame becomes a {@link ClientMessage} or an
 * error answer with a stable code and a message, never an exception (which would close the socket with 1011);
 * and a subscription's {@code since} resolves or is refused with the IllegalArgumentException the handler answers
 * as {@code bad-since}.
 */
class ClientMessagePropertiesTest {

    private static final Set<String> PARSE_ERRORS = Set.of("malformed-json", "bad-message", "bad-filter");

    private final DeliveryLog log = new DeliveryLog(64);

    ClientMessagePropertiesTest() {
        log.started(0, 0);
    }

    @Property
    void anyFrameIsAMessageOrAnErrorAnswer(@ForAll("frames") Frame frame) {
        var parsed = Fuzz.returns(
                () -> ClientMessages.parse(frame.text()),
                p -> p.rejection() != null
                        ? "error " + p.rejection().code()
                        : p.message() == null
                                ? "neither"
                                : "message "
                                        + (p.message().type() == null
                                                ? "without type"
                                                : Set.of("subscribe", "unsubscribe", "ping")
                                                                .contains(p.message()
                                                                        .type())
                                                        ? p.message().type()
                                                        : "of another type"));
        assertThat(parsed).isNotNull();
        assertThat(parsed.message() == null).isNotEqualTo(parsed.rejection() == null);
        if (parsed.rejection() != null) {
            assertThat(parsed.rejection().code()).isIn(PARSE_ERRORS);
            assertThat(parsed.rejection().detail()).isNotBlank();
        }
    }

    @Property
    void anySinceResolvesOrIsABadSince(@ForAll("sinces") String since) {
        Fuzz.expect(
                () -> Replay.resolve(since, log),
                IllegalArgumentException.class,
                e -> e.getClass() == IllegalArgumentException.class && e.getMessage() != null,
                e -> "bad-since");
    }

    /** A text frame; shown escaped in a failure report. */
    record Frame(String text) {
        @Override
        public String toString() {
            return new JsonFuzz.Body(text.getBytes(StandardCharsets.UTF_8)).toString();
        }
    }

    @Provide
    Arbitrary<Frame> frames() {
        var filter = JsonFuzz.fields();
        filter.put("channel", JsonFuzz.field(Arbitraries.of("\"c\"", "\"fuzz\"", "\"\"")));
        filter.put("deviceType", JsonFuzz.field(Arbitraries.of("\"em300th\"", "\"json\"")));
        filter.put("deviceId", JsonFuzz.field(JsonFuzz.strings().map(JsonFuzz::quote)));
        filter.put("severity", JsonFuzz.field(Arbitraries.of("\"MAJOR\"", "\"minor\"", "\"x\"")));
        var message = JsonFuzz.fields();
        message.put(
                "type",
                JsonFuzz.field(Arbitraries.of("subscribe", "unsubscribe", "ping", "SUBSCRIBE", "", "pong")
                        .map(JsonFuzz::quote)));
        message.put("id", JsonFuzz.field(JsonFuzz.strings().map(JsonFuzz::quote)));
        message.put(
                "stream",
                JsonFuzz.field(
                        Arbitraries.of("data-units", "alarms", "", "data_units").map(JsonFuzz::quote)));
        message.put("filter", JsonFuzz.field(JsonFuzz.shaped(filter)));
        message.put("since", JsonFuzz.field(sinces().map(JsonFuzz::quote)));
        var json = JsonFuzz.documents(JsonFuzz.shaped(message))
                .map(body -> new String(body.bytes(), StandardCharsets.UTF_8));
        return Arbitraries.frequencyOf(
                        Tuple.of(8, json),
                        Tuple.of(1, JsonFuzz.values(4)),
                        Tuple.of(
                                1,
                                Arbitraries.of(
                                        "",
                                        " ",
                                        "null",
                                        "true",
                                        "0",
                                        "\"\"",
                                        "[]",
                                        "{}",
                                        "[null]",
                                        "{\"type\":null}",
                                        "\"subscribe\"",
                                        "{\"type\":\"ping\"}{",
                                        "\uFEFF{}",
                                        "{\"id\":{}}",
                                        "{\"filter\":null}")),
                        Tuple.of(1, Arbitraries.strings().all().ofMaxLength(40)))
                .map(Frame::new);
    }

    @Provide
    Arbitrary<String> sinces() {
        return Arbitraries.frequencyOf(
                Tuple.of(
                        3,
                        Arbitraries.longs()
                                .between(Instant.MIN.getEpochSecond(), Instant.MAX.getEpochSecond())
                                .map(s -> Instant.ofEpochSecond(s).toString())),
                Tuple.of(2, Arbitraries.create(() -> Ids.newId().toString())),
                Tuple.of(1, Arbitraries.create(() -> UUID.randomUUID().toString())),
                Tuple.of(
                        1,
                        Arbitraries.of(
                                "2024-01-01T00:00:00+19:00",
                                "2024-02-30T00:00:00Z",
                                "0-0-0-0-0",
                                "00000000-0000-0000-0000-000000000000",
                                "ffffffff-ffff-ffff-ffff-ffffffffffff",
                                "1-1-1-1-11111111111111111",
                                "-1--1-1-1-1",
                                "+999999999-12-31T23:59:59Z",
                                "")),
                Tuple.of(2, JsonFuzz.strings()));
    }
}
