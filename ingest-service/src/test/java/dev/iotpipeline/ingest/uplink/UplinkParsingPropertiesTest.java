package dev.iotpipeline.ingest.uplink;

import static dev.iotpipeline.events.fuzz.JsonFuzz.field;
import static dev.iotpipeline.events.fuzz.JsonFuzz.quote;
import static org.assertj.core.api.Assertions.assertThat;

import dev.iotpipeline.events.fuzz.Fuzz;
import dev.iotpipeline.events.fuzz.JsonFuzz;
import dev.iotpipeline.events.fuzz.JsonFuzz.Body;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Set;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.springframework.web.ErrorResponseException;
import tools.jackson.databind.JsonNode;

/**
 * Hostile input never gets a 500 from the uplink endpoints: every body, however malformed, ends either as
 * uplinks or as the {@link ErrorResponseException} with a 4xx problem that the controllers answer with. The
 * calls are the ones {@link UplinkController} and {@link WebhookController} make, without Spring.
 */
class UplinkParsingPropertiesTest {

    private static final int MAX_PAYLOAD = 256;
    private static final int MAX_BATCH = 20;
    private static final Set<Integer> CLIENT_ERRORS = Set.of(400, 404, 413);
    private static final String PROBLEM_TYPES = "https://iot-pipeline.dev/problems/";
    private static final Pattern DEVICE_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,127}");

    private final RequestItems items = new RequestItems(MAX_BATCH);
    private final UplinkFactory factory =
            new UplinkFactory(Set.of("em300th", "json", "lht65")::contains, MAX_PAYLOAD, Clock.systemUTC());

    /** The rejection every controller path maps to a 4xx answer, with a problem type of our own. */
    static boolean clientError(ErrorResponseException e) {
        return CLIENT_ERRORS.contains(e.getStatusCode().value())
                && e.getBody().getType().toString().startsWith(PROBLEM_TYPES)
                && e.getBody().getDetail() != null;
    }

    static String problemType(ErrorResponseException e) {
        var type = e.getBody().getType().toString();
        return e.getStatusCode().value() + " " + type.substring(type.lastIndexOf('/') + 1);
    }

    @Property
    void anyBodyIsATreeOrAClientError(@ForAll("anyBodies") Body body) {
        JsonNode tree = Fuzz.expect(
                () -> items.parse(body.bytes()),
                ErrorResponseException.class,
                UplinkParsingPropertiesTest::clientError,
                UplinkParsingPropertiesTest::problemType);
        if (tree != null) {
            assertThat(tree.isMissingNode() || tree.isValueNode() || tree.isContainer())
                    .isTrue();
        }
    }

    @Property
    void anyEncodedBodyBecomesUplinksOrAClientError(
            @ForAll("encodedBodies") Body body, @ForAll("idempotencyKeys") String idempotencyKey) {
        var uplinks = Fuzz.expect(
                () -> items.map(
                        items.parse(body.bytes()),
                        UplinkRequest.class,
                        (request, index) -> factory.create(
                                        factory.target("fuzz", "em300th"), request, idempotencyKey, index)
                                .event()),
                ErrorResponseException.class,
                UplinkParsingPropertiesTest::clientError,
                UplinkParsingPropertiesTest::problemType);
        if (uplinks != null) {
            assertThat(uplinks).isNotEmpty().hasSizeLessThanOrEqualTo(MAX_BATCH).allSatisfy(uplink -> {
                assertThat(uplink.deviceId()).matches(DEVICE_ID);
                assertThat(uplink.payload()).isNotEmpty().hasSizeLessThanOrEqualTo(MAX_PAYLOAD);
                assertThat(uplink.fPort())
                        .satisfiesAnyOf(
                                p -> assertThat(p).isNull(), p -> assertThat(p).isBetween(0, 255));
            });
        }
    }

    @Property
    void anyDecodedBodyBecomesUplinksOrAClientError(
            @ForAll("decodedBodies") Body body, @ForAll("idempotencyKeys") String idempotencyKey) {
        var uplinks = Fuzz.expect(
                () -> items.map(
                        items.parse(body.bytes()),
                        DecodedRequest.class,
                        (request, index) -> factory.createDecoded(
                                        factory.decodedTarget("fuzz"), request, idempotencyKey, index)
                                .event()),
                ErrorResponseException.class,
                UplinkParsingPropertiesTest::clientError,
                UplinkParsingPropertiesTest::problemType);
        if (uplinks != null) {
            assertThat(uplinks).isNotEmpty().allSatisfy(uplink -> {
                assertThat(uplink.deviceType()).isEqualTo("json");
                assertThat(uplink.payload()).isNotEmpty().hasSizeLessThanOrEqualTo(MAX_PAYLOAD);
            });
        }
    }

    @Property
    void anyTheThingsStackMessageBecomesAnUplinkAnAcknowledgementOrAClientError(@ForAll("ttsBodies") Body body) {
        var uplink = Fuzz.expect(
                () -> {
                    var forwarded =
                            Messages.uplinkOrNull(NetworkServerFormats.theThingsStack(items.parse(body.bytes())));
                    return forwarded == null
                            ? null
                            : factory.createForwarded(factory.target("fuzz", "em300th"), forwarded)
                                    .event();
                },
                ErrorResponseException.class,
                UplinkParsingPropertiesTest::clientError,
                UplinkParsingPropertiesTest::problemType);
        if (uplink != null) {
            assertThat(uplink.deviceId()).matches(DEVICE_ID);
            assertThat(uplink.payload()).isNotEmpty();
        }
    }

    @Property
    void anyChirpStackEventBecomesAnUplinkAnAcknowledgementOrAClientError(@ForAll("chirpStackBodies") Body body) {
        var uplink = Fuzz.expect(
                () -> {
                    var forwarded =
                            Messages.uplinkOrNull(NetworkServerFormats.chirpStack("up", items.parse(body.bytes())));
                    return forwarded == null
                            ? null
                            : factory.createForwarded(factory.target("fuzz", "em300th"), forwarded)
                                    .event();
                },
                ErrorResponseException.class,
                UplinkParsingPropertiesTest::clientError,
                UplinkParsingPropertiesTest::problemType);
        if (uplink != null) {
            assertThat(uplink.deviceId()).matches(DEVICE_ID);
            assertThat(uplink.payload()).isNotEmpty();
        }
    }

    @Property
    void anyPathIsATargetOrAClientError(@ForAll("channels") String channel, @ForAll("names") String deviceType) {
        Fuzz.expect(
                () -> {
                    factory.target(channel, deviceType);
                    return channel;
                },
                ErrorResponseException.class,
                UplinkParsingPropertiesTest::clientError,
                UplinkParsingPropertiesTest::problemType);
    }

    @Provide
    Arbitrary<Body> anyBodies() {
        return JsonFuzz.bodies(JsonFuzz.values(4));
    }

    @Provide
    Arbitrary<Body> encodedBodies() {
        var fields = JsonFuzz.fields();
        fields.put("deviceId", field(deviceIds()));
        fields.put(
                "payload",
                field(payloadBytes().map(b -> quote(Base64.getEncoder().encodeToString(b)))));
        fields.put(
                "payloadHex", field(payloadBytes().map(b -> quote(HexFormat.of().formatHex(b)))));
        fields.put("fPort", field(Arbitraries.integers().between(-2, 300).map(String::valueOf)));
        fields.put("id", field(JsonFuzz.strings().map(JsonFuzz::quote)));
        fields.put("measuredAt", field(times()));
        return JsonFuzz.bodies(JsonFuzz.shaped(fields));
    }

    @Provide
    Arbitrary<Body> decodedBodies() {
        var names = Arbitraries.frequencyOf(
                Tuple.of(12, Arbitraries.of("temperature", "humidity", "co2", "a", "x.y", "B_1-2")),
                Tuple.of(1, JsonFuzz.strings()));
        var measurement = Combinators.combine(
                        names,
                        Arbitraries.frequencyOf(Tuple.of(12, JsonFuzz.numbers()), Tuple.of(1, JsonFuzz.values(1))))
                .as((name, value) -> quote(name) + ":" + value);
        var fields = JsonFuzz.fields();
        fields.put("deviceId", field(deviceIds()));
        fields.put("measurements", field(measurement.list().ofMaxSize(6).map(m -> "{" + String.join(",", m) + "}")));
        fields.put("attributes", field(JsonFuzz.objects(3)));
        fields.put("id", field(JsonFuzz.strings().map(JsonFuzz::quote)));
        fields.put("measuredAt", field(times()));
        return JsonFuzz.bodies(JsonFuzz.shaped(fields));
    }

    @Provide
    Arbitrary<Body> ttsBodies() {
        var applicationIds = JsonFuzz.fields();
        applicationIds.put("application_id", field(JsonFuzz.strings().map(JsonFuzz::quote)));
        var ids = JsonFuzz.fields();
        ids.put("device_id", field(deviceIds()));
        ids.put(
                "dev_eui",
                field(Arbitraries.strings()
                        .withChars("0123456789ABCDEF")
                        .ofLength(16)
                        .map(JsonFuzz::quote)));
        ids.put("application_ids", field(JsonFuzz.shaped(applicationIds)));
        var lora = JsonFuzz.fields();
        lora.put("spreading_factor", field(Arbitraries.integers().between(5, 12).map(String::valueOf)));
        var dataRate = JsonFuzz.fields();
        dataRate.put("lora", field(JsonFuzz.shaped(lora)));
        var settings = JsonFuzz.fields();
        settings.put("frequency", field(Arbitraries.of("\"868300000\"", "868100000")));
        settings.put("data_rate", field(JsonFuzz.shaped(dataRate)));
        var versions = JsonFuzz.fields();
        versions.put("brand_id", field(JsonFuzz.strings().map(JsonFuzz::quote)));
        versions.put("model_id", field(JsonFuzz.strings().map(JsonFuzz::quote)));
        var message = JsonFuzz.fields();
        message.put("f_port", field(Arbitraries.integers().between(-2, 300).map(String::valueOf)));
        message.put("f_cnt", field(Arbitraries.longs().between(0, 1L << 33).map(String::valueOf)));
        message.put(
                "frm_payload",
                field(payloadBytes().map(b -> quote(Base64.getEncoder().encodeToString(b)))));
        message.put("rx_metadata", field(gateways()));
        message.put("settings", field(JsonFuzz.shaped(settings)));
        message.put("received_at", field(times()));
        message.put("version_ids", field(JsonFuzz.shaped(versions)));
        var event = JsonFuzz.fields();
        event.put("end_device_ids", field(JsonFuzz.shaped(ids)));
        event.put(
                "correlation_ids",
                field(Arbitraries.of("as:up:01E0WZGT6Y7657CPFPE5WEYDSQ", "gs:conn:1", "as:up:")
                        .map(JsonFuzz::quote)
                        .list()
                        .ofMaxSize(4)
                        .map(list -> "[" + String.join(",", list) + "]")));
        event.put("received_at", field(times()));
        event.put("uplink_message", field(JsonFuzz.shaped(message)));
        return JsonFuzz.bodies(JsonFuzz.shaped(event));
    }

    @Provide
    Arbitrary<Body> chirpStackBodies() {
        var device = JsonFuzz.fields();
        device.put(
                "devEui",
                field(Arbitraries.strings()
                        .withChars("0123456789abcdef")
                        .ofLength(16)
                        .map(JsonFuzz::quote)));
        device.put("deviceName", field(JsonFuzz.strings().map(JsonFuzz::quote)));
        device.put("applicationName", field(JsonFuzz.strings().map(JsonFuzz::quote)));
        device.put("deviceProfileName", field(JsonFuzz.strings().map(JsonFuzz::quote)));
        var txInfo = JsonFuzz.fields();
        txInfo.put(
                "frequency",
                field(Arbitraries.integers().between(860_000_000, 930_000_000).map(String::valueOf)));
        var event = JsonFuzz.fields();
        event.put(
                "deduplicationId",
                field(Arbitraries.create(() -> quote(java.util.UUID.randomUUID().toString()))));
        event.put("time", field(times()));
        event.put("deviceInfo", field(JsonFuzz.shaped(device)));
        event.put("fCnt", field(Arbitraries.longs().between(0, 1L << 33).map(String::valueOf)));
        event.put("fPort", field(Arbitraries.integers().between(-2, 300).map(String::valueOf)));
        event.put("dr", field(Arbitraries.integers().between(0, 15).map(String::valueOf)));
        event.put(
                "data", field(payloadBytes().map(b -> quote(Base64.getEncoder().encodeToString(b)))));
        event.put("rxInfo", field(gateways()));
        event.put("txInfo", field(JsonFuzz.shaped(txInfo)));
        return JsonFuzz.bodies(JsonFuzz.shaped(event));
    }

    @Provide
    Arbitrary<String> idempotencyKeys() {
        return Arbitraries.frequencyOf(Tuple.of(1, Arbitraries.just(null)), Tuple.of(2, JsonFuzz.strings()));
    }

    /** A path variable: never null, Spring matches no empty segment either. */
    @Provide
    Arbitrary<String> channels() {
        return names().filter(name -> name != null && !name.isEmpty());
    }

    @Provide
    Arbitrary<String> names() {
        return Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.just(null)),
                Tuple.of(2, Arbitraries.of("em300th", "json", "lht65", "fuzz", "a", "-a", "A", "unknown-type")),
                Tuple.of(1, Arbitraries.strings().withChars("abcz09-").ofMaxLength(70)),
                Tuple.of(2, JsonFuzz.strings()));
    }

    private static Arbitrary<String> deviceIds() {
        return Arbitraries.frequencyOf(
                        Tuple.of(
                                4,
                                Combinators.combine(
                                                Arbitraries.strings()
                                                        .withChars("aZ09")
                                                        .ofLength(1),
                                                Arbitraries.strings()
                                                        .withChars("aZ09._:-")
                                                        .ofMaxLength(130))
                                        .as(String::concat)),
                        Tuple.of(1, JsonFuzz.strings()))
                .map(JsonFuzz::quote);
    }

    private static Arbitrary<byte[]> payloadBytes() {
        return Arbitraries.bytes().array(byte[].class).ofMaxSize(MAX_PAYLOAD + 8);
    }

    private static Arbitrary<String> times() {
        return Arbitraries.frequencyOf(
                Tuple.of(
                        4,
                        Arbitraries.longs()
                                .between(0, 4_102_444_800L)
                                .map(s -> quote(Instant.ofEpochSecond(s).toString()))),
                Tuple.of(
                        2,
                        Arbitraries.longs()
                                .between(Instant.MIN.getEpochSecond(), Instant.MAX.getEpochSecond())
                                .map(s -> quote(Instant.ofEpochSecond(s).toString()))),
                Tuple.of(1, JsonFuzz.numbers()),
                Tuple.of(1, JsonFuzz.strings().map(JsonFuzz::quote)));
    }

    private static Arbitrary<String> gateways() {
        var gateway = JsonFuzz.fields();
        gateway.put("rssi", field(Arbitraries.integers().between(-140, 0).map(String::valueOf)));
        gateway.put("snr", field(Arbitraries.doubles().between(-20, 15).map(String::valueOf)));
        return JsonFuzz.shaped(gateway).list().ofMaxSize(4).map(list -> "[" + String.join(",", list) + "]");
    }
}
