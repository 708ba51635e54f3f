package dev.iotpipeline.decoder.codec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.iotpipeline.events.EventJson;
import dev.iotpipeline.events.fuzz.Fuzz;
import dev.iotpipeline.events.fuzz.JsonFuzz;
import java.io.ByteArrayOutputStream;
import java.util.HexFormat;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * Every built-in codec, given any bytes and any fPort, returns a decoding or throws exactly {@link CodecException}
 * (the dead-letter reason); nothing else escapes, nothing hangs, and what it returns is finite numbers and
 * attributes that serialize. Bytes are random or built from the codec's own items, so both the item parsers
 * and their bounds checks are reached.
 */
class BuiltInCodecsPropertiesTest {

    private final UplinkCodec em300th = new Em300thCodec();
    private final UplinkCodec lht65 = new Lht65Codec();
    private final UplinkCodec cayenne = new CayenneLppCodec();
    private final UplinkCodec json = new JsonCodec();

    /** What {@code codec} makes of {@code payload}: a decoding whose content is sound, or a CodecException. */
    static void decodesOrRejects(UplinkCodec codec, Payload payload, Integer fPort) {
        var decoded = Fuzz.expect(
                () -> codec.decode(payload.bytes(), fPort),
                CodecException.class,
                e -> e.getClass() == CodecException.class
                        && e.getMessage() != null
                        && !e.getMessage().isBlank());
        if (decoded != null) {
            assertThat(decoded.measurements()).isNotNull().allSatisfy((name, value) -> {
                assertThat(name).isNotNull();
                assertThat(value).isNotNull().isFinite();
            });
            // A data unit copies both maps with Map.copyOf: no null names or values.
            assertThat(decoded.attributes()).isNotNull().doesNotContainKey(null).doesNotContainValue(null);
            decoded.history().forEach(point -> {
                assertThat(point.measuredAt()).isNotNull();
                assertThat(point.measurements().values())
                        .allSatisfy(value -> assertThat(value).isFinite());
            });
            assertThat(EventJson.write(decoded)).isNotEmpty();
        }
    }

    @Property
    void em300thDecodesAnyBytesOrRejectsThem(
            @ForAll("em300thPayloads") Payload payload, @ForAll("fPorts") Integer fPort) {
        decodesOrRejects(em300th, payload, fPort);
    }

    @Property
    void lht65DecodesAnyBytesOrRejectsThem(@ForAll("lht65Payloads") Payload payload, @ForAll("fPorts") Integer fPort) {
        decodesOrRejects(lht65, payload, fPort);
    }

    @Property
    void cayenneLppDecodesAnyBytesOrRejectsThem(
            @ForAll("cayennePayloads") Payload payload, @ForAll("fPorts") Integer fPort) {
        decodesOrRejects(cayenne, payload, fPort);
    }

    @Property
    void jsonDecodesAnyBytesOrRejectsThem(@ForAll("jsonPayloads") Payload payload, @ForAll("fPorts") Integer fPort) {
        decodesOrRejects(json, payload, fPort);
    }

    /** A payload, shown as hex (and as text when it is JSON) in a failure report. */
    record Payload(byte[] bytes) {
        @Override
        public String toString() {
            return bytes.length + " bytes: " + HexFormat.of().formatHex(bytes, 0, Math.min(bytes.length, 2048))
                    + (bytes.length > 0 && (bytes[0] == '{' || bytes[0] == '[')
                            ? " = " + new JsonFuzz.Body(bytes)
                            : "");
        }
    }

    @Provide
    Arbitrary<Integer> fPorts() {
        return Arbitraries.frequencyOf(
                Tuple.of(2, Arbitraries.just(null)),
                Tuple.of(4, Arbitraries.of(1, 2, 85)),
                Tuple.of(3, Arbitraries.integers().between(0, 255)),
                Tuple.of(1, Arbitraries.of(-1, 256, Integer.MIN_VALUE, Integer.MAX_VALUE)));
    }

    @Provide
    Arbitrary<Payload> em300thPayloads() {
        // (channel, type, value length) of every EM300-TH item, as in the codec.
        return items(
                List.of(
                        item(0x01, 0x75, 1),
                        item(0x03, 0x67, 2),
                        item(0x04, 0x68, 1),
                        item(0x20, 0xCE, 7),
                        item(0xFF, 0x01, 1),
                        item(0xFF, 0x0B, 1),
                        item(0xFF, 0x0F, 1),
                        item(0xFF, 0x09, 2),
                        item(0xFF, 0x0A, 2),
                        item(0xFF, 0xFF, 2),
                        item(0xFF, 0x16, 8)),
                false);
    }

    @Provide
    Arbitrary<Payload> cayennePayloads() {
        // (type, value length) of every Cayenne LPP type the codec knows; the channel is any byte.
        return items(
                List.of(
                        item(-1, 0x00, 1),
                        item(-1, 0x01, 1),
                        item(-1, 0x02, 2),
                        item(-1, 0x03, 2),
                        item(-1, 0x65, 2),
                        item(-1, 0x66, 1),
                        item(-1, 0x67, 2),
                        item(-1, 0x68, 1),
                        item(-1, 0x73, 2),
                        item(-1, 0x71, 6),
                        item(-1, 0x86, 6),
                        item(-1, 0x88, 9)),
                true);
    }

    @Provide
    Arbitrary<Payload> lht65Payloads() {
        var frame = Combinators.combine(
                        Arbitraries.bytes().array(byte[].class).ofSize(11),
                        Arbitraries.of((byte) 0x01, (byte) 0x81, (byte) 0x00, (byte) 0x7F, (byte) 0x09),
                        Arbitraries.of(true, false))
                .as((bytes, external, noReading) -> {
                    bytes[6] = external;
                    if (noReading) {
                        bytes[7] = 0x7F;
                        bytes[8] = (byte) 0xFF;
                    }
                    return bytes;
                });
        return Arbitraries.frequencyOf(
                        Tuple.of(4, frame),
                        Tuple.of(1, Arbitraries.bytes().array(byte[].class).ofMaxSize(24)))
                .map(Payload::new);
    }

    @Provide
    Arbitrary<Payload> jsonPayloads() {
        var measurement = Combinators.combine(
                        JsonFuzz.names(),
                        Arbitraries.frequencyOf(Tuple.of(6, JsonFuzz.numbers()), Tuple.of(1, JsonFuzz.values(1))))
                .as((name, value) -> JsonFuzz.quote(name) + ":" + value);
        var fields = JsonFuzz.fields();
        fields.put(
                "measurements",
                JsonFuzz.field(measurement.list().ofMaxSize(6).map(m -> "{" + String.join(",", m) + "}")));
        fields.put("attributes", JsonFuzz.field(JsonFuzz.objects(3)));
        var wrapped = JsonFuzz.shaped(fields);
        var flat = Combinators.combine(JsonFuzz.names(), JsonFuzz.values(2))
                .as((k, v) -> JsonFuzz.quote(k) + ":" + v)
                .list()
                .ofMaxSize(8)
                .map(m -> "{" + String.join(",", m) + "}");
        return JsonFuzz.bodies(Arbitraries.oneOf(wrapped, flat)).map(body -> new Payload(body.bytes()));
    }

    private record Item(int channel, int type, int length) {}

    private static Item item(int channel, int type, int length) {
        return new Item(channel, type, length);
    }

    /**
     * A sequence of the codec's items with random values, each now and then cut short or followed by a stray
     * byte, or a random header; or bytes that are random throughout.
     */
    private static Arbitrary<Payload> items(List<Item> known, boolean anyChannel) {
        var one = Combinators.combine(
                        Arbitraries.of(known),
                        Arbitraries.integers().between(0, 255),
                        Arbitraries.bytes().array(byte[].class).ofMaxSize(9),
                        Arbitraries.frequency(Tuple.of(12, 0), Tuple.of(1, -1), Tuple.of(1, 1)),
                        Arbitraries.integers().between(0, 20))
                .as((item, channel, value, skew, junk) -> {
                    var out = new ByteArrayOutputStream();
                    if (junk == 0) {
                        out.write(channel);
                        out.write(value.length > 0 ? value[0] : 0);
                        return out.toByteArray();
                    }
                    out.write(anyChannel ? channel : item.channel());
                    out.write(item.type());
                    int length = Math.max(0, item.length() + skew);
                    for (int i = 0; i < length; i++) {
                        out.write(i < value.length ? value[i] : i * 37);
                    }
                    return out.toByteArray();
                });
        var sequence = one.list().ofMaxSize(8).map(parts -> {
            var out = new ByteArrayOutputStream();
            parts.forEach(out::writeBytes);
            return out.toByteArray();
        });
        return Arbitraries.frequencyOf(
                        Tuple.of(4, sequence),
                        Tuple.of(1, Arbitraries.bytes().array(byte[].class).ofMaxSize(64)))
                .map(Payload::new);
    }
}
